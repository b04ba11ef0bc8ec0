-- The local index's documents, shared by every replica (src/store/postgres/pg-index-store.ts).
-- Each replica ranks them in memory and follows index_seq: every insert or update of a
-- document takes the next number into its row's seq, every delete leaves the id in
-- index_deletions with the next number, so "what changed past n" is two index range scans.
-- Writers take index_write_lock first: numbers are then handed out in commit order, and a
-- replica that has read up to n can never later see a commit below n.
CREATE SEQUENCE index_seq;

CREATE TABLE index_documents (
  id bigserial PRIMARY KEY,
  url text COLLATE "C" NOT NULL UNIQUE,
  domain text COLLATE "C" NOT NULL,
  title text NOT NULL,
  content text NOT NULL,
  -- ISO 8601 as given (compared as text, like SQLite: hence byte order) and its UTC day.
  published_date text COLLATE "C",
  published_day text COLLATE "C",
  language text,
  country text,
  source text COLLATE "C" NOT NULL,
  indexed_at timestamptz NOT NULL DEFAULT now(),
  seq bigint NOT NULL DEFAULT nextval('index_seq')
);
CREATE INDEX index_documents_seq ON index_documents (seq);
CREATE INDEX index_documents_source ON index_documents (source);

CREATE TABLE index_deletions (
  id bigint PRIMARY KEY,
  seq bigint NOT NULL DEFAULT nextval('index_seq')
);
CREATE INDEX index_deletions_seq ON index_deletions (seq);

-- Locked (EXCLUSIVE) by every write transaction of the index; readers never take it.
CREATE TABLE index_write_lock ();

-- Triggers, so any write (also one typed in psql) reaches the replicas. Their search_path
-- is the migration's, so they find index_seq and index_deletions whatever the session's is.
CREATE FUNCTION index_document_updated() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  NEW.seq := nextval('index_seq');
  RETURN NEW;
END
$$;

CREATE TRIGGER index_documents_updated BEFORE UPDATE ON index_documents
FOR EACH ROW EXECUTE FUNCTION index_document_updated();

CREATE FUNCTION index_document_deleted() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO index_deletions (id) VALUES (OLD.id)
  ON CONFLICT (id) DO UPDATE SET seq = DEFAULT;
  RETURN NULL;
END
$$;

CREATE TRIGGER index_documents_deleted AFTER DELETE ON index_documents
FOR EACH ROW EXECUTE FUNCTION index_document_deleted();
