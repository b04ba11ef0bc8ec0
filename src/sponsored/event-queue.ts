import type { AdEvent, AdEventStore, Charge, ImpressionRecord } from '../store/ports.ts';

export interface EventQueueOptions {
  store: AdEventStore;
  /** Longest an event waits before its batch is written. */
  flushMs: number;
  /** A batch this large is written at once, without waiting for the timer. */
  batchSize?: number;
  /** Events kept while the store fails; past it the oldest are dropped (and reported). */
  maxPending?: number;
  /** The charges of each written batch, to keep in-memory spend exact between reloads. */
  onCharges: (charges: Charge[]) => void;
  /** The first failed write of an outage (not every retry), and every drop past maxPending. */
  onError: (err: unknown) => void;
  /** A write succeeded after failures: what was kept is stored. */
  onRecovered?: () => void;
}

export interface EventQueue {
  push(event: AdEvent): void;
  /** An impression still waiting to be written (its rec_id must resolve already). */
  pendingImpression(recId: string): ImpressionRecord | undefined;
  /** Writes everything queued so far; resolves when it is stored. */
  flush(): Promise<void>;
  /** Events waiting to be written (metrics). */
  backlog(): number;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

/**
 * Events are written behind the response: a search or a click only appends to an array, and
 * one transaction per batch stores them on a short timer, so ads add no storage latency.
 */
export function createEventQueue(o: EventQueueOptions): EventQueue {
  const batchSize = o.batchSize ?? 1000;
  const maxPending = o.maxPending ?? 100_000;
  let pending: AdEvent[] = [];
  const impressions = new Map<string, ImpressionRecord>();
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  // Within an outage the retries fail every flushMs: said once, not five times a second.
  let failing = false;

  const forget = (events: readonly AdEvent[]) => {
    for (const e of events) if (e.kind === 'impression') impressions.delete(e.impression.recId);
  };

  async function writeOnce(): Promise<void> {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      o.onCharges(await o.store.write(batch));
      forget(batch);
      if (failing) o.onRecovered?.();
      failing = false;
    } catch (e) {
      // Keep the batch for the next attempt, within bounds: a dead store must not eat memory.
      pending = [...batch, ...pending];
      if (!failing) {
        o.onError(
          new Error(
            `ad events could not be written (${pending.length} kept, retried every ${o.flushMs} ms): ${(e as Error).message}`,
            { cause: e },
          ),
        );
      }
      failing = true;
      const overflow = pending.length - maxPending;
      if (overflow > 0) {
        forget(pending.splice(0, overflow));
        o.onError(
          new Error(
            `${overflow} ad events dropped: the store has failed for longer than ${maxPending} events could be kept`,
          ),
        );
      }
      if (!closed) schedule();
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    chain = chain.then(writeOnce);
    return chain;
  }

  function schedule(): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, o.flushMs);
    timer.unref();
  }

  return {
    push(event) {
      if (closed) return;
      pending.push(event);
      if (event.kind === 'impression') impressions.set(event.impression.recId, event.impression);
      if (pending.length >= batchSize) void flush();
      else schedule();
    },
    pendingImpression: (recId) => impressions.get(recId),
    flush,
    backlog: () => pending.length,
    async close() {
      closed = true;
      await flush();
    },
  };
}
