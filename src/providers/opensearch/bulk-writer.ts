import type { DocumentRow, DocumentSource } from '../../store/index-rows.ts';
import { ProviderError } from '../provider.ts';
import { bulkLines, documentId, pageSource } from './bulk-document.ts';
import { isRejection, bulkItems } from './bulk-response.ts';
import {
  clusterError,
  describeError,
  explain,
  ok,
  statusError,
  type ClusterClient,
  type ClusterResponse,
} from './cluster-client.ts';
import { at } from '../../domain/must.ts';

/**
 * Writes validated documents to OpenSearch through `_bulk`, for `scout index import|add|crawl
 * --to opensearch` (docs/opensearch.md, "Writing"):
 * - batches of at most `maxDocs` documents and `maxBytes` bytes (a larger document goes alone);
 * - back-pressure: at most `maxInFlight` requests out at once; `add` waits while they are
 *   all out, so a large file is read no faster than the cluster takes it;
 * - a request the cluster rejects as busy (429, `rejected_execution_exception`,
 *   `es_rejected_execution_exception`), a node that cannot serve (502/503/504, refused
 *   connection, timeout) is retried with exponential backoff, holding its slot; when only
 *   some items are rejected as busy, only those are sent again;
 * - every other per-item failure is reported for that item (its input line or url) with
 *   the cluster's error type and reason, and the rest of the batch is kept;
 * - refused credentials (401/403) or a cluster unreachable after every retry stop the whole
 *   write (`fatal`): every later document would fail the same way;
 * - one url twice: the later write is sent only after the earlier one's batch is settled,
 *   retries included, so the last line for a url wins, as in the local index.
 */

export interface BulkItem {
  /** How failures name the item: its input line number, or its url. */
  ref: number | string;
  row: DocumentRow;
}

export type ItemOutcome = { ok: true } | { ok: false; reason: string };

export interface BulkWriterOptions {
  client: ClusterClient;
  maxDocs: number;
  maxBytes: number;
  maxInFlight: number;
  /** Run once, before the first request (puts the index template); its failure is fatal. */
  prepare?: () => Promise<unknown>;
  /** Told of each item's outcome as its batch settles. */
  onOutcome?: (item: BulkItem, outcome: ItemOutcome) => void;
  /** Attempts per batch, the first included (default 6). */
  attempts?: number;
  /** First retry delay, doubled on each retry up to maxBackoffMs (defaults 500 ms and 30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Time limit of one request (default 120 s); past it the request counts as failed and is retried. */
  requestTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  source?: DocumentSource;
}

export interface BulkSummary {
  indexed: number;
  failed: number;
}

interface Entry {
  item: BulkItem;
  id: string;
  lines: string;
  bytes: number;
  settle(outcome: ItemOutcome): void;
}

const NODE_UNAVAILABLE = new Set([502, 503, 504]);

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class BulkWriter {
  readonly #o: Required<Omit<BulkWriterOptions, 'prepare' | 'onOutcome'>> &
    Pick<BulkWriterOptions, 'prepare' | 'onOutcome'>;
  readonly #path: string;
  #buffer: Entry[] = [];
  #bufferIds = new Set<string>();
  #bytes = 0;
  #inFlight = 0;
  readonly #slotWaiters: (() => void)[] = [];
  /** Per document id, the settling of the batch that holds its latest write. */
  readonly #busyIds = new Map<string, Promise<void>>();
  readonly #running = new Set<Promise<void>>();
  #prepared: Promise<unknown> | undefined;
  #fatal: Error | undefined;
  readonly summary: BulkSummary = { indexed: 0, failed: 0 };

  constructor(options: BulkWriterOptions) {
    this.#o = {
      attempts: 6,
      backoffMs: 500,
      maxBackoffMs: 30_000,
      requestTimeoutMs: 120_000,
      sleep: defaultSleep,
      now: () => new Date(),
      source: 'import',
      ...options,
    };
    this.#path = `/${encodeURIComponent(options.client.index)}/_bulk`;
  }

  /** Why writing stopped for good (credentials refused, cluster unreachable), if it did. */
  get fatal(): Error | undefined {
    return this.#fatal;
  }

  /** Runs `prepare` now (once); a failure is fatal and thrown. */
  async prepare(): Promise<void> {
    this.#prepared ??= (this.#o.prepare?.() ?? Promise.resolve()).catch((e: unknown) => {
      this.#stop(e);
      throw this.#fatal;
    });
    await this.#prepared;
  }

  /** Buffers one document; waits while `maxInFlight` requests are out. Throws once writing stopped. */
  async add(item: BulkItem): Promise<void> {
    await this.#add(item);
  }

  /** Writes one document now (with whatever else is buffered) and waits for its outcome. */
  async write(item: BulkItem): Promise<ItemOutcome> {
    const { done } = await this.#add(item);
    await this.#flush();
    return done;
  }

  /** Sends what is buffered and waits until every batch has settled. */
  async close(): Promise<BulkSummary> {
    await this.#flush();
    while (this.#running.size > 0) await Promise.all([...this.#running]);
    return this.summary;
  }

  /** Buffers the item; `done` settles with its outcome (wrapped: an async function would wait for a returned promise). */
  async #add(item: BulkItem): Promise<{ done: Promise<ItemOutcome> }> {
    if (this.#fatal) throw this.#fatal;
    const id = documentId(item.row.url);
    const indexedAt = this.#o
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const lines = bulkLines(id, pageSource(item.row, this.#o.source, indexedAt));
    const bytes = Buffer.byteLength(lines);
    // The same url twice in one batch: its items could be retried out of order; send the
    // earlier one first (its successor then waits for it, see #flush).
    if (this.#bufferIds.has(id) || (this.#buffer.length > 0 && this.#bytes + bytes > this.#o.maxBytes))
      await this.#flush();
    let resolve!: (o: ItemOutcome) => void;
    const done = new Promise<ItemOutcome>((r) => (resolve = r));
    this.#buffer.push({
      item,
      id,
      lines,
      bytes,
      settle: (outcome) => {
        if (outcome.ok) this.summary.indexed += 1;
        else this.summary.failed += 1;
        this.#o.onOutcome?.(item, outcome);
        resolve(outcome);
      },
    });
    this.#bufferIds.add(id);
    this.#bytes += bytes;
    if (this.#buffer.length >= this.#o.maxDocs || this.#bytes >= this.#o.maxBytes) await this.#flush();
    return { done };
  }

  /** Takes the buffer as one batch and starts it once its documents' earlier writes settled and a slot is free. */
  async #flush(): Promise<void> {
    if (this.#buffer.length === 0) return;
    const batch = this.#buffer;
    this.#buffer = [];
    this.#bufferIds = new Set();
    this.#bytes = 0;
    // Registered before waiting for anything, so a later batch with the same url waits for this one.
    const earlier = new Set<Promise<void>>();
    for (const e of batch) {
      const busy = this.#busyIds.get(e.id);
      if (busy) earlier.add(busy);
    }
    let settled!: () => void;
    const done = new Promise<void>((r) => (settled = r));
    for (const e of batch) this.#busyIds.set(e.id, done);
    // Counted from now, so close() also waits for a batch still waiting for its turn.
    this.#running.add(done);
    void done.then(() => this.#running.delete(done));
    // Earlier writes first, the slot after: a batch holding a slot never waits for one that has none.
    await Promise.all(earlier);
    await this.#acquire();
    void this.#send(batch).finally(() => {
      for (const e of batch) if (this.#busyIds.get(e.id) === done) this.#busyIds.delete(e.id);
      this.#release();
      settled();
    });
  }

  async #acquire(): Promise<void> {
    while (this.#inFlight >= this.#o.maxInFlight) await new Promise<void>((r) => this.#slotWaiters.push(r));
    this.#inFlight += 1;
  }

  #release(): void {
    this.#inFlight -= 1;
    this.#slotWaiters.shift()?.();
  }

  #stop(e: unknown): void {
    if (this.#fatal) return;
    // Operators read this: the cluster's own reason is worth showing (already free of secrets).
    const message = explain(e);
    this.#fatal = new Error(message.startsWith('OpenSearch') ? message : `OpenSearch: ${message}`, { cause: e });
  }

  #backoff(attempt: number): number {
    return Math.min(this.#o.maxBackoffMs, this.#o.backoffMs * 2 ** (attempt - 1));
  }

  /** Sends a batch until every item is settled; never throws. */
  async #send(batch: Entry[]): Promise<void> {
    let todo = batch;
    const failAll = (reason: string): void => {
      for (const e of todo) e.settle({ ok: false, reason });
    };
    try {
      await this.prepare();
    } catch {
      return failAll(this.#fatal!.message);
    }
    for (let attempt = 1; ; attempt += 1) {
      if (this.#fatal) return failAll(this.#fatal.message);
      const last = attempt >= this.#o.attempts;
      let res: ClusterResponse;
      try {
        res = await this.#o.client.request({
          method: 'POST',
          path: this.#path,
          ndjson: todo.map((e) => e.lines).join(''),
          signal: AbortSignal.timeout(this.#o.requestTimeoutMs),
        });
      } catch (e) {
        const transport = e instanceof ProviderError && (e.failure === 'network' || e.failure === 'timeout');
        if (!transport) return failAll(`OpenSearch: ${(e as Error).message}`);
        // Every node refused, reset or timed out: wait and try again, then give up on the whole write.
        if (!last) {
          await this.#o.sleep(this.#backoff(attempt));
          continue;
        }
        this.#stop(new Error(`OpenSearch unreachable after ${attempt} attempts: ${(e as Error).message}`));
        return failAll(this.#fatal!.message);
      }
      if (res.status === 429 || NODE_UNAVAILABLE.has(res.status)) {
        if (!last) {
          await this.#o.sleep(this.#backoff(attempt));
          continue;
        }
        return failAll(`${this.#refusal(res)} (still refused after ${attempt} attempts)`);
      }
      if (res.status === 401 || res.status === 403) {
        this.#stop(statusError(res, this.#o.client.secrets));
        return failAll(this.#fatal!.message);
      }
      if (!ok(res)) return failAll(this.#refusal(res));
      const items = bulkItems(res.body, todo.length, this.#o.client.secrets);
      if (!items) return failAll('OpenSearch answered _bulk with a malformed response');
      const busy: Entry[] = [];
      // bulkItems answers one item per entry sent, in order.
      items.forEach((result, i) => {
        const entry = at(todo, i, 'bulk entry');
        if (result.status >= 200 && result.status < 300) entry.settle({ ok: true });
        else if (isRejection(result.status, result.error?.type) && !last) busy.push(entry);
        else {
          const why = `refused by OpenSearch (${result.status} ${describeError(result.error ?? { reason: '' })})`;
          entry.settle({
            ok: false,
            reason: isRejection(result.status, result.error?.type)
              ? `${why}, still rejected after ${attempt} attempts`
              : why,
          });
        }
      });
      if (busy.length === 0) return;
      todo = busy;
      await this.#o.sleep(this.#backoff(attempt));
    }
  }

  /** A whole request's refusal, for each of its items. */
  #refusal(res: ClusterResponse): string {
    return `refused by OpenSearch (HTTP ${res.status} ${describeError(clusterError(res.body, res.text, this.#o.client.secrets))})`;
  }
}
