import type Database from 'better-sqlite3';
import type { RankerDocument } from '../../store/index-rows.ts';
import { MemoryRanker } from './memory-ranker.ts';

export interface RankerSyncOptions {
  /** Bytes the ranker may hold in memory; past them its sealed postings spill to a file (MemoryRankerOptions). */
  budgetBytes: number;
  /** Where the spill file goes (default: the OS temporary directory). */
  spillDir?: string;
  /** Pending documents applied synchronously before a search; more go to the background. */
  syncLimit?: number;
  /** Documents read per background step (one event-loop turn each). */
  batch?: number;
  /** Told when a build completes (`ready`, with its duration). */
  onChange?: (status: RankerStatus) => void;
}

export interface RankerStatus {
  state: State;
  documents: number;
  /** Build time, on the `ready` that ends a build. */
  ms?: number;
}

type State = 'cold' | 'building' | 'catching-up' | 'ready' | 'off';

const newRanker = (o: RankerSyncOptions): MemoryRanker =>
  new MemoryRanker({
    keepTexts: false,
    budgetBytes: o.budgetBytes,
    ...(o.spillDir !== undefined ? { spillDir: o.spillDir } : {}),
  });

const DOC_COLUMNS = `d.id, d.url, d.domain, d.published_date AS publishedDate, d.published_day AS day, d.country, t.title, t.content
  FROM documents d JOIN document_texts t ON t.id = d.id`;

/**
 * Keeps a MemoryRanker equal to the index file. The first search of a small index builds
 * it at once; a large one is built in the background, a batch per event-loop turn, while
 * FTS5 answers. The ranker keeps no texts (a page's are read from the file) and stays
 * within its memory budget by spilling postings to disk, so no index is too large for it. Afterwards every search compares the index version (PRAGMA data_version
 * and this connection's own writes) with the one last applied; on a change it reads the
 * ids in `index_changes` past the last sequence number applied and re-reads those
 * documents (a few: before the search; many: in the background again, FTS5 answering).
 * `rankerFor` only returns the ranker when it reflects the version asked about, so a
 * search never sees a half-applied change.
 */
export class RankerSync {
  readonly #options: RankerSyncOptions;
  readonly #syncLimit: number;
  readonly #batch: number;
  readonly #maxSeq: Database.Statement;
  readonly #pending: Database.Statement;
  readonly #changes: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #scan: Database.Statement;
  readonly #count: Database.Statement;
  #ranker: MemoryRanker;
  #state: State = 'cold';
  #seq = 0;
  #cursor = 0;
  #applied = '';
  #step: NodeJS.Immediate | undefined;
  readonly #onChange?: (status: RankerStatus) => void;
  /** performance.now() when the running build began; undefined when none is running. */
  #buildStart: number | undefined;

  constructor(db: Database.Database, options: RankerSyncOptions) {
    this.#options = options;
    this.#ranker = newRanker(options);
    this.#syncLimit = options.syncLimit ?? 500;
    this.#batch = options.batch ?? 32;
    if (options.onChange) this.#onChange = options.onChange;
    this.#maxSeq = db.prepare('SELECT ifnull(max(seq), 0) FROM index_changes').pluck();
    this.#pending = db.prepare('SELECT count(*) FROM (SELECT 1 FROM index_changes WHERE seq > ? LIMIT ?)').pluck();
    this.#changes = db.prepare('SELECT id, seq FROM index_changes WHERE seq > ? ORDER BY seq LIMIT ?');
    this.#byId = db.prepare(`SELECT ${DOC_COLUMNS} WHERE d.id = ?`);
    this.#scan = db.prepare(`SELECT ${DOC_COLUMNS} WHERE d.id > ? ORDER BY d.id LIMIT ?`);
    this.#count = db.prepare('SELECT count(*) FROM documents').pluck();
  }

  /** The ranker if it reflects index version `version` (after applying a small delta), else undefined. */
  rankerFor(version: string): MemoryRanker | undefined {
    if (this.#state === 'ready' && version === this.#applied) return this.#ranker;
    if (this.#state === 'off') return undefined;
    if (this.#state === 'cold') return this.#start(version);
    if (this.#state === 'ready') {
      const pending = this.#pending.get(this.#seq, this.#syncLimit + 1) as number;
      if (pending > this.#syncLimit) {
        this.#state = 'catching-up';
        this.#schedule();
        return undefined;
      }
      this.#applyChanges(Infinity);
      this.#applied = version;
      return this.#ranker;
    }
    return undefined;
  }

  /** Brings the ranker up to date now, whatever the size (tests, benchmarks). */
  syncNow(version: string): MemoryRanker | undefined {
    if (this.#state === 'off') return undefined;
    this.#cancel();
    if (this.#state !== 'ready' && this.#state !== 'catching-up') {
      this.#begin();
      this.#scanBatch(Infinity);
    }
    this.#applyChanges(Infinity);
    this.#state = 'ready';
    this.#applied = version;
    this.#built();
    return this.#ranker;
  }

  /** Reports the end of a build (once), its arrays trimmed to size. */
  #built(): void {
    if (this.#buildStart === undefined) return;
    this.#ranker.trim();
    const ms = Math.round(performance.now() - this.#buildStart);
    this.#buildStart = undefined;
    this.#onChange?.({ state: 'ready', documents: this.#ranker.size, ms });
  }

  /** Live documents in the ranker, and whether it is in use. */
  status(): RankerStatus {
    return { state: this.#state, documents: this.#ranker.size };
  }

  /** The ranker as it stands (benchmarks: its memory). */
  get ranker(): MemoryRanker {
    return this.#ranker;
  }

  close(): void {
    this.#cancel();
    this.#ranker.close();
    this.#state = 'off';
    this.#buildStart = undefined;
  }

  #start(version: string): MemoryRanker | undefined {
    const total = this.#count.get() as number;
    if (total <= this.#syncLimit) return this.syncNow(version);
    this.#begin();
    this.#schedule();
    return undefined;
  }

  #begin(): void {
    this.#buildStart = performance.now();
    this.#ranker.close();
    this.#ranker = newRanker(this.#options);
    this.#seq = this.#maxSeq.get() as number;
    this.#cursor = 0;
    this.#state = 'building';
  }

  /** Reads up to `n` documents past the cursor; the scan ends when a batch comes back short. */
  #scanBatch(n: number): void {
    const rows = this.#scan.all(this.#cursor, Number.isFinite(n) ? n : -1) as RankerDocument[];
    for (const row of rows) this.#ranker.add(row);
    const last = rows.at(-1);
    if (last !== undefined) this.#cursor = last.id;
    if (!Number.isFinite(n) || rows.length < n) this.#state = 'catching-up';
  }

  /** Applies up to `n` changed ids past the last sequence number; true when none is left. */
  #applyChanges(n: number): boolean {
    const rows = this.#changes.all(this.#seq, Number.isFinite(n) ? n : -1) as { id: number; seq: number }[];
    for (const { id, seq } of rows) {
      const doc = this.#byId.get(id) as RankerDocument | undefined;
      if (doc) this.#ranker.add(doc);
      else this.#ranker.remove(id);
      this.#seq = seq;
    }
    return !Number.isFinite(n) || rows.length < n;
  }

  #schedule(): void {
    if (this.#step !== undefined) return;
    this.#step = setImmediate(() => {
      this.#step = undefined;
      this.#background();
    });
  }

  #background(): void {
    if (this.#state === 'building') {
      this.#scanBatch(this.#batch);
    } else if (this.#state === 'catching-up') {
      // Ready again once a batch comes back short: the next search applies what is left.
      if (this.#applyChanges(this.#batch)) this.#state = 'ready';
    } else {
      return;
    }
    if (this.#state !== 'ready') {
      this.#schedule();
    } else {
      this.#applied = '';
      this.#built();
    }
  }

  #cancel(): void {
    if (this.#step !== undefined) clearImmediate(this.#step);
    this.#step = undefined;
  }
}
