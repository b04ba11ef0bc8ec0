/**
 * The storage ports. Small interfaces whose atomic operations say so; every backend (SQLite
 * and memory) runs the same contract suite in test/store/. Async everywhere, so a network
 * backend could fit without changing callers.
 */

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** Hex SHA-256 of the full key; the plaintext is never stored. */
  hash: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface KeyStore {
  insert(record: Omit<ApiKeyRecord, 'revokedAt'>): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no such id (or already revoked). */
  revoke(id: string, at: string): Promise<boolean>;
  count(): Promise<number>;
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

export interface Stores {
  keys: KeyStore;
  rateLimiter: RateLimiter;
  budget: BudgetStore;
  /** Throws when the backing store cannot serve (used by /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
