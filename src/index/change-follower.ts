import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IndexChange, IndexDocumentStore } from '../store/ports.ts';
import { MemoryRanker } from './ranker/memory-ranker.ts';

export interface ChangeFollowerOptions {
  /** Pause between two reads of the change sequence. */
  pollMs: number;
  /** Changes read per query. */
  pageSize?: number;
  /** Changes applied in one go, so searches see them all at once or not at all; more are applied in turns. */
  syncLimit?: number;
  /** Changes applied per event-loop turn when there are more than syncLimit. */
  batch?: number;
  /** A read of the store failed (told once until one succeeds again); the next poll retries. */
  onError?: (err: unknown) => void;
  /** A read succeeded after failures. */
  onRecovered?: () => void;
  /** The ranker's memory budget (MemoryRankerOptions.budgetBytes). */
  budgetBytes?: number;
}

/** Changes held in memory at most while reading ahead of the ranker. */
const MAX_BUFFERED = 5000;

/**
 * A MemoryRanker kept equal to a document store by reading its change sequence: every
 * `pollMs`, and whenever catchUp() is called (after this process's own writes). A catch-up
 * reads every change committed so far, in pages, then applies them; up to syncLimit are
 * applied in one synchronous step, so a search sees a write (a starter corpus refresh, an
 * import batch) whole or not at all. A larger delta is applied `batch` documents per
 * event-loop turn, so searches keep being answered while it lands (they see it land part by
 * part, as the import writing it commits it part by part). While the store cannot be read,
 * the ranker keeps answering from what it has.
 */
export class ChangeFollower {
  readonly ranker: MemoryRanker;
  readonly #store: IndexDocumentStore;
  readonly #o: ChangeFollowerOptions & { pageSize: number; syncLimit: number; batch: number };
  /** Sequence number of the last change applied. */
  #seq = 0;
  /** Catch-ups run one after another; this is the latest. */
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #failing = false;

  constructor(store: IndexDocumentStore, options: ChangeFollowerOptions) {
    this.#store = store;
    this.#o = { pageSize: 500, syncLimit: 500, batch: 64, ...options };
    // No file to read a page's texts from: the ranker keeps them (they count in its budget).
    this.ranker = new MemoryRanker({
      keepTexts: true,
      ...(options.budgetBytes !== undefined ? { budgetBytes: options.budgetBytes } : {}),
    });
  }

  /** Sequence number of the last change applied: equal numbers mean equal rankers. */
  get seq(): number {
    return this.#seq;
  }

  /** Reads and applies every change committed before the call; calls queue behind each other. */
  catchUp(): Promise<void> {
    const run = this.#chain.then(() => this.#catchUp());
    this.#chain = run.then(
      () => this.#succeeded(),
      (err: unknown) => this.#failed(err),
    );
    return run;
  }

  /** Polls the store every pollMs until close(). */
  start(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.catchUp()
        .catch(() => undefined)
        .finally(() => this.start());
    }, this.#o.pollMs);
    // A poll alone never keeps the process alive.
    this.#timer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#chain;
    // Its spill file, if the budget made one, goes with it.
    this.ranker.close();
  }

  async #catchUp(): Promise<void> {
    let pending: IndexChange[] = [];
    let readTo = this.#seq;
    for (;;) {
      if (this.#closed) return;
      const page = await this.#store.changesSince(readTo, this.#o.pageSize);
      for (const c of page) pending.push(c);
      const last = page.at(-1);
      if (last !== undefined) readTo = last.seq;
      if (page.length < this.#o.pageSize) break;
      if (pending.length >= MAX_BUFFERED) {
        await this.#applyInTurns(pending);
        pending = [];
      }
    }
    if (pending.length <= this.#o.syncLimit) this.#apply(pending, 0, pending.length);
    else await this.#applyInTurns(pending);
  }

  async #applyInTurns(changes: IndexChange[]): Promise<void> {
    for (let i = 0; i < changes.length && !this.#closed; i += this.#o.batch) {
      if (i > 0) await nextTurn();
      this.#apply(changes, i, Math.min(changes.length, i + this.#o.batch));
    }
  }

  #apply(changes: IndexChange[], from: number, to: number): void {
    if (from >= to || this.#closed) return;
    for (const { seq, id, doc } of changes.slice(from, to)) {
      if (doc) this.ranker.add(doc);
      else this.ranker.remove(id);
      this.#seq = seq;
    }
  }

  #succeeded(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#o.onRecovered?.();
  }

  #failed(err: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#o.onError?.(err);
  }
}
