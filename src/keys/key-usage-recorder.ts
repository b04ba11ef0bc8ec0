import type { KeyStore, KeyUsage } from '../store/ports.ts';

export interface KeyUsageRecorderOptions {
  /** How often the accumulated usage is written (default 2000 ms). */
  flushMs?: number;
  now?: () => Date;
  /** A write that failed (its usage is kept for the next one). flush() and close() never reject. */
  onError?: (err: unknown) => void;
}

export interface KeyUsageRecorder {
  /** Counts one request made with the key (refused or not); memory only, never waits. */
  record(keyId: string, refused: boolean): void;
  /** Writes what was recorded before this call, in one addUsage (after a flush already running). */
  flush(): Promise<void>;
  /** Stops the timer and makes one last flush. What is recorded later waits for an explicit flush. */
  close(): Promise<void>;
  /** Requests recorded and not yet written (a write in progress included). */
  pending(): number;
}

interface Delta {
  requests: number;
  refusals: number;
  /** Epoch ms: the ISO text is made once per flush, not once per request. */
  lastUsedMs: number;
}

const DEFAULT_FLUSH_MS = 2000;

/**
 * Key usage for the operator's dashboard, batched: every authenticated request would
 * otherwise be a store write on its hot path. record() adds to a delta per key in memory;
 * every flushMs (an unref'd timer, which never keeps the process up) the deltas are handed
 * to the store in one addUsage, which adds them where the totals are stored, so replicas add
 * up. A batch is taken out of the map before its write: records made meanwhile go to a new
 * delta. A failed write (one transaction, so nothing of it stored) is merged back, to be
 * written with the next flush: nothing lost, nothing counted twice. Only a write whose
 * commit succeeds while its answer is lost (a connection cut at that moment) could be
 * written again. A crash loses at most the last flushMs of counts.
 */
export function createKeyUsageRecorder(
  store: Pick<KeyStore, 'addUsage'>,
  options: KeyUsageRecorderOptions = {},
): KeyUsageRecorder {
  const flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
  if (!(Number.isFinite(flushMs) && flushMs > 0))
    throw new RangeError(`flushMs must be a positive number of milliseconds, not ${flushMs}`);
  const now = options.now ?? (() => new Date());
  const onError = options.onError ?? (() => undefined);

  let deltas = new Map<string, Delta>();
  let waiting = 0;
  let writing: Promise<void> | undefined;
  let writingCount = 0;

  /** Adds to the key's delta in `deltas` (made when it has none): a request recorded, or a batch given back. */
  const add = (id: string, requests: number, refusals: number, lastUsedMs: number): void => {
    const had = deltas.get(id);
    if (had === undefined) deltas.set(id, { requests, refusals, lastUsedMs });
    else {
      had.requests += requests;
      had.refusals += refusals;
      if (lastUsedMs > had.lastUsedMs) had.lastUsedMs = lastUsedMs;
    }
  };

  // Never rejects: the timer's flush has no caller to reject to.
  const write = async (batch: Map<string, Delta>): Promise<void> => {
    try {
      const usage: KeyUsage[] = [...batch].map(([id, d]) => ({
        id,
        requests: d.requests,
        refusals: d.refusals,
        lastUsedAt: new Date(d.lastUsedMs).toISOString(),
      }));
      await store.addUsage(usage);
      writingCount = 0;
    } catch (err) {
      for (const [id, d] of batch) add(id, d.requests, d.refusals, d.lastUsedMs);
      waiting += writingCount;
      writingCount = 0;
      try {
        onError(err);
      } catch {
        // A failing error handler must not turn into an unhandled rejection; the usage is kept.
      }
    }
  };

  const flush = async (): Promise<void> => {
    // One write at a time: a flush called during another waits for it, then writes what is
    // left (records made meanwhile, or the batch given back by a failure).
    while (writing) await writing;
    if (deltas.size === 0) return;
    const batch = deltas;
    deltas = new Map();
    writingCount = waiting;
    waiting = 0;
    writing = write(batch).finally(() => {
      writing = undefined;
    });
    await writing;
  };

  const timer = setInterval(() => {
    // A tick during a slow write skips rather than queueing behind it.
    if (!writing && deltas.size > 0) void flush();
  }, flushMs);
  timer.unref();
  let closing: Promise<void> | undefined;

  return {
    record(keyId, refused) {
      add(keyId, 1, refused ? 1 : 0, now().getTime());
      waiting++;
    },
    flush,
    close() {
      clearInterval(timer);
      closing ??= flush();
      return closing;
    },
    pending: () => waiting + writingCount,
  };
}
