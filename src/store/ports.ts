/**
 * Every storage port. Small interfaces whose atomic operations say so; every backend runs
 * the port's contract suite in test/store/contract/, and the memory twins in memory/ are the
 * reference. Async everywhere, so network backends fit without changing callers.
 */
import type {
  DocumentRow,
  DocumentSource,
  IndexListEntry,
  IndexListQuery,
  IndexStats,
  RankerDocument,
} from './index-rows.ts';

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** Hex SHA-256 of the full key; the plaintext is never stored. */
  hash: string;
  createdAt: string;
  revokedAt: string | null;
}

/** Use of one key: its stored totals, or (given to addUsage) the amounts to add. */
export interface KeyUsage {
  id: string;
  /** Every request made with the key, refused ones included. */
  requests: number;
  /** Those of the requests that were refused. */
  refusals: number;
  /** The latest use, ISO 8601 UTC in toISOString form (2026-01-02T03:04:05.678Z); null when none. */
  lastUsedAt: string | null;
}

export interface KeyStore {
  insert(record: Omit<ApiKeyRecord, 'revokedAt'>): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no such id (or already revoked). */
  revoke(id: string, at: string): Promise<boolean>;
  count(): Promise<number>;
  /**
   * Atomically, in one transaction, adds each delta's requests and refusals to its key's
   * stored totals (increments where they are stored: replicas sharing the store add up) and
   * keeps the later lastUsedAt (null keeps the stored one). A delta naming no key is ignored:
   * no row, no error; but ANONYMOUS_USAGE_ID (src/domain/anonymous-caller.ts), the anonymous
   * tier's aggregate, is kept like a key's. A key named by any delta has usage from then on,
   * revoked or not.
   */
  addUsage(deltas: readonly KeyUsage[]): Promise<void>;
  /** The totals of every key that has usage, in id (byte) order, as copies. */
  usage(): Promise<KeyUsage[]>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed right now after this one. */
  remaining: number;
  /** Milliseconds until the allowance is full again. */
  resetMs: number;
  /** When refused: milliseconds until this request would be allowed; 0 when allowed. */
  retryAfterMs: number;
}

/** A bucket as it stands, read without taking from it. */
export interface RateLimitState {
  limit: number;
  /** Requests allowed right now. */
  remaining: number;
  /** Milliseconds until the allowance is full again; 0 when it is full. */
  resetMs: number;
  /** Milliseconds until one request is allowed; 0 when one is allowed now. */
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Atomically takes `cost` from the bucket of `key`, or refuses without taking anything. */
  consume(key: string, cost: number): Promise<RateLimitDecision>;
  /** The bucket of `key` now, taking nothing (GET /v1/usage reports it without spending it). */
  peek(key: string): Promise<RateLimitState>;
}

export interface BudgetStore {
  /** Atomically adds `cost` to the period's usage unless that would pass `limit`. */
  consume(period: string, cost: number, limit: number): Promise<{ allowed: boolean; used: number }>;
  /** Gives back units of a search that was not served. */
  refund(period: string, cost: number): Promise<void>;
  used(period: string): Promise<number>;
}

/* Asynchronous crawl jobs (src/crawl/crawl-jobs.ts): kept where every replica sees them. */

export type CrawlJobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A job as stored. Times are epoch milliseconds. */
export interface CrawlJobRecord {
  id: string;
  /** Who started it (an API key's id): only that key reads or cancels it. */
  owner: string;
  /** Opaque text written at creation (the runner's request), given back as written. */
  request: string;
  status: CrawlJobStatus;
  /** Opaque text the runner saves as it goes (its checkpoint, then its result); null before the first save. */
  progress: string | null;
  createdAt: number;
  /** The last create, claim, save or cancel. */
  updatedAt: number;
  /** From then on purge() deletes the job. */
  expiresAt: number;
  /** The runner holding the job and until when, while it runs; null otherwise. */
  leaseOwner: string | null;
  leaseUntil: number | null;
  /** Claims so far: 1 on the first run, one more each time another runner takes it over. */
  attempts: number;
}

export type NewCrawlJob = Pick<CrawlJobRecord, 'id' | 'owner' | 'request' | 'createdAt' | 'expiresAt'>;

export interface CrawlJobStore {
  /**
   * Atomically adds the job (queued) unless its owner already has `maxActive` jobs queued or
   * running, whichever process added them; false then (nothing added). A duplicate id throws.
   */
  create(job: NewCrawlJob, maxActive: number): Promise<boolean>;
  get(id: string): Promise<CrawlJobRecord | undefined>;
  /**
   * Atomically hands `worker` the oldest job (by createdAt, then id) that is queued, or running
   * with its lease ended (leaseUntil <= now: its runner died): status running, leased to
   * `worker` until now + leaseMs, attempts + 1. While a lease holds no other claim gets the
   * job; two racing claims never get the same one. undefined when there is none.
   */
  claim(worker: string, now: number, leaseMs: number): Promise<CrawlJobRecord | undefined>;
  /**
   * Saves `progress` and `status` while `worker` holds the job (leaseOwner is worker and status
   * running, even past leaseUntil if nobody claimed it since): running extends the lease to
   * now + leaseMs; completed or failed ends it (leaseOwner and leaseUntil null). false when the
   * worker no longer holds it (taken over, cancelled, purged): nothing is written and the
   * worker must stop.
   */
  save(
    id: string,
    worker: string,
    update: { progress: string; status: 'running' | 'completed' | 'failed'; now: number; leaseMs: number },
  ): Promise<boolean>;
  /**
   * Cancels `owner`'s job if it is queued or running (status cancelled, lease ended: its
   * runner's next save is refused); a finished job stays as it is. The record afterwards, or
   * undefined when `owner` has no job of that id.
   */
  cancel(id: string, owner: string, now: number): Promise<CrawlJobRecord | undefined>;
  /** Deletes the jobs whose expiresAt <= now, in any state; how many. */
  purge(now: number): Promise<number>;
}

export interface Stores {
  keys: KeyStore;
  rateLimiter: RateLimiter;
  /**
   * The anonymous tier's buckets (SCOUT_ANONYMOUS_RPM, one per client address group), in the
   * same place as the keys' buckets; absent while the tier is off.
   */
  anonymousRateLimiter?: RateLimiter;
  budget: BudgetStore;
  /** Asynchronous crawl jobs, shared by every replica on a shared store. */
  crawlJobs: CrawlJobStore;
  /** Throws when the backing store cannot serve (used by /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/* The sponsored side (docs/sponsored.md): campaigns, and the events that bill them. */

export type CampaignStatus = 'active' | 'paused';

export interface IncentiveRecord {
  kind: 'credit' | 'code' | 'trial';
  code?: string;
  benefit: string;
}

/** A campaign as stored: the validated campaign file with its defaults applied. */
export interface CampaignRecord {
  id: string;
  advertiser: string;
  title: string;
  url: string;
  content: string;
  keywords: string[];
  negativeKeywords: string[];
  /** ISO 3166-1 alpha-2, upper case; empty means every country (and requests without one). */
  countries: string[];
  bidMicros: number;
  budgetMicros: number;
  dailyCapMicros: number | null;
  /** Inclusive YYYY-MM-DD bounds (UTC days). */
  startDate: string | null;
  endDate: string | null;
  status: CampaignStatus;
  disclosure: string;
  incentive: IncentiveRecord | null;
  createdAt: string;
  updatedAt: string;
}

export interface CampaignStore {
  insert(record: CampaignRecord): Promise<void>;
  /** Replaces a live campaign's definition (id and createdAt kept); false when unknown or deleted. */
  replace(record: CampaignRecord): Promise<boolean>;
  /** Sets the status of a live campaign; the updated record, or undefined when unknown or deleted. */
  setStatus(id: string, status: CampaignStatus, at: string): Promise<CampaignRecord | undefined>;
  /** Deletes a live campaign (its events stay for accounting); false when unknown or already deleted. */
  delete(id: string, at: string): Promise<boolean>;
  get(id: string): Promise<CampaignRecord | undefined>;
  /** Live campaigns, oldest first. */
  list(): Promise<CampaignRecord[]>;
  /**
   * A number that changes whenever any campaign changes, whoever wrote it (a CLI beside a
   * running server included): the server's in-memory keyword index reloads when it moves.
   */
  version(): Promise<number>;
}

/** The record of one sponsored impression: what its rec_id resolves to. */
export interface ImpressionRecord {
  recId: string;
  campaignId: string;
  /** The campaign's landing URL at the time of the impression. */
  landingUrl: string;
  /** Epoch milliseconds. */
  shownAt: number;
  requestId: string;
  position: number;
}

export type AdEvent =
  | { kind: 'impression'; impression: ImpressionRecord }
  | { kind: 'read'; recId: string; campaignId: string; at: number }
  | { kind: 'click'; recId: string; campaignId: string; at: number };

/** Money taken from a campaign by one charged read. */
export interface Charge {
  campaignId: string;
  /** UTC day of the read, YYYY-MM-DD. */
  day: string;
  micros: number;
}

export interface CampaignSpend {
  campaignId: string;
  totalMicros: number;
  /** Spend of the UTC day asked for. */
  dayMicros: number;
}

export interface CampaignStats {
  campaignId: string;
  impressions: number;
  /** Distinct rec_ids read (repeat reads of one rec_id count once). */
  reads: number;
  clicks: number;
  spendMicros: number;
}

export interface AdEventStore {
  /**
   * Writes a batch of events in one transaction, in order. The first read of a rec_id is
   * charged the campaign's bid, capped at what is left of its budget and of the read day's
   * cap; later reads of that rec_id are stored with no charge. Returns the charges made.
   */
  write(events: readonly AdEvent[]): Promise<Charge[]>;
  findImpression(recId: string): Promise<ImpressionRecord | undefined>;
  /** Spend of every campaign that has any: all time, and on `day`. */
  spend(day: string): Promise<CampaignSpend[]>;
  /** Counts per campaign from the UTC day `sinceDay` (YYYY-MM-DD) on; all time when undefined. */
  stats(sinceDay?: string): Promise<CampaignStats[]>;
}

/**
 * Named random secrets shared by every process on one store (the rec_id signing key): the
 * first process to ask creates one, every later ask, from any process, gets the same bytes.
 */
export interface SecretStore {
  /** The secret called `name`, made of `bytes` random bytes when it does not exist yet. */
  get(name: string, bytes: number): Promise<Uint8Array>;
}

export interface SponsoredStores {
  campaigns: CampaignStore;
  events: AdEventStore;
  secrets: SecretStore;
  close(): Promise<void>;
}

/*
 * The local index's document store: where its documents live when several Scout processes
 * share them (PostgreSQL), read by every replica's in-memory ranker through a change sequence.
 */

/**
 * One entry of the change sequence: the document `id` as it is now (`doc`), or deleted
 * (`doc` null). Each id appears once, at the sequence number of its latest change.
 */
export interface IndexChange {
  seq: number;
  id: number;
  doc: RankerDocument | null;
}

export interface IndexDocumentStore {
  /**
   * Writes rows in one transaction; a url replaces itself (its id is kept), the last row of
   * a url wins. A row equal to the stored one (text, fields and source) is no change: it
   * takes no new sequence number (the embedded SQLite adapter, kept for the contract only,
   * records every write: harmless, since followers apply a change idempotently). Returns rows.length.
   */
  upsert(rows: DocumentRow[], source: DocumentSource): Promise<number>;
  /**
   * Makes `rows` the whole of `source`, in one transaction: urls of the source not in
   * `rows` are deleted, unchanged rows are no change. Returns rows.length.
   */
  replaceSource(source: DocumentSource, rows: DocumentRow[]): Promise<number>;
  /** Deletes the documents of these urls; returns how many there were. */
  remove(urls: string[]): Promise<number>;
  /**
   * Changes past sequence number `seq`, in sequence order, at most `limit`. Reading from 0
   * in pages yields every live document (and deletions, harmless to apply). A change
   * committed after a page was read always comes after it: the store hands out sequence
   * numbers in commit order.
   */
  changesSince(seq: number, limit: number): Promise<IndexChange[]>;
  /** The sequence number of the latest committed change; 0 when none. */
  latestSeq(): Promise<number>;
  count(): Promise<number>;
  stats(): Promise<IndexStats>;
  /** Documents in url byte order, filtered, at most `limit`, after `after`. */
  list(q: IndexListQuery): Promise<IndexListEntry[]>;
  /** Releases what the store opened itself (a pool handed in stays open). */
  close(): Promise<void>;
}

/* The result cache: final search answers kept for a while (src/providers/result-cache.ts). */

/**
 * Text kept for a while under a key, in process (memory/memory-result-cache.ts) or shared by
 * replicas (redis/redis-result-cache.ts). Opaque: the key and the value are what the layer
 * above wrote (src/providers/result-cache.ts: a search's key and its answer as JSON), given
 * back as they were; the backends know nothing of searches. Each backend has its own time to
 * live. Never rejects: a cache that cannot answer is a miss.
 */
export interface ResultCache {
  /** False when caching is off: the backend then does not even read the providers' revisions. */
  readonly enabled: boolean;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}
