import { Piscina } from 'piscina';
import { DomainError } from '../domain/errors.ts';
import type { ExtractedDocument, ExtractInput } from '../extract/extract-document.ts';
import type { ExtractReply, ExtractResult, ExtractTask } from './extract-task.ts';

/**
 * The worker threads that turn fetched bytes into markdown (HTML, PDF, feeds, every type),
 * so a page that is slow or huge to extract never stalls the event loop: /healthz, search
 * and the other fetches go on answering. Each worker has a heap limit; a page that needs
 * more ends its worker (ERR_WORKER_OUT_OF_MEMORY), not the process. A task whose signal
 * aborts (the fetch deadline) is rejected at once and, if it is running, piscina terminates
 * its worker (V8 stops even a busy loop). Either way piscina starts a replacement, which
 * takes tasks once its code has loaded.
 */

export interface ExtractPoolOptions {
  /** Worker threads (SCOUT_FETCH_WORKERS); pages beyond them wait, each under its own deadline. */
  workers: number;
  /** JavaScript heap limit of each worker, MB (SCOUT_FETCH_WORKER_HEAP_MB). */
  heapMb: number;
  /** CPU niceness of the worker threads (SCOUT_FETCH_WORKER_NICE, 0 = as the event loop). */
  nice?: number;
  /** A worker lost while it held no task (nothing to answer; worth a log line). */
  onWorkerError?: (err: unknown) => void;
  /** The worker module (file URL); tests substitute one that spins, exits or runs out of memory. */
  workerFile?: string;
}

export interface ExtractPool {
  /** Resolves once every worker has loaded its code and answered once (start-up waits for it). */
  ready(): Promise<void>;
  /** One page, and its links when the task asks for them (the crawl). */
  run(task: ExtractTask, signal?: AbortSignal): Promise<ExtractResult>;
  /** createFetchService's `extract`. */
  extract(input: ExtractInput, signal?: AbortSignal): Promise<ExtractedDocument>;
  /** Tasks waiting for a free worker (metrics). */
  queued(): number;
  /** Terminates the workers; tasks still queued or running are rejected. */
  close(): Promise<void>;
}

const WORKER_FILE = new URL('./extract-worker.mjs', import.meta.url).href;

const codeOf = (e: unknown): unknown => (e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined);

/** The DomainError for a task piscina rejected (the worker never answered). */
function poolFailure(e: unknown, heapMb: number, signal: AbortSignal | undefined, closing: boolean): unknown {
  if (signal?.aborted) {
    return signal.reason instanceof DomainError
      ? signal.reason
      : new DomainError('timeout', 'extracting the page was cancelled');
  }
  if (closing)
    return new DomainError('unavailable', 'Scout is shutting down and stopped extracting the page; try again');
  if (codeOf(e) === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new DomainError('upstream', `the page needs more memory to extract than the limit of ${heapMb} MB`);
  }
  const message = e instanceof Error ? e.message : String(e);
  const exited = /^worker exited with code: (-?\d+)/.exec(message);
  if (exited !== null) {
    return new DomainError(
      'upstream',
      `extracting the page stopped its worker thread (exit code ${exited[1]}); the page cannot be read`,
    );
  }
  return e;
}

function unwrap(reply: ExtractReply): ExtractResult {
  if (reply.ok) return reply.result;
  if (reply.kind !== null)
    throw new DomainError(reply.kind, reply.message, reply.reason === undefined ? undefined : { reason: reply.reason });
  throw new Error(`extraction failed in its worker: ${reply.message}`);
}

export function createExtractPool(options: ExtractPoolOptions): ExtractPool {
  const { workers, heapMb } = options;
  const pool = new Piscina({
    filename: options.workerFile ?? WORKER_FILE,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Idle workers wait on their message port, not in Atomics.wait: pdf.js finishes some
    // work (document teardown) after a task has answered, which a blocked loop would stall.
    atomics: 'disabled',
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    workerData: { nice: options.nice ?? 0 },
  });
  // Without a listener, an error of an idle worker would be thrown as an uncaught exception.
  pool.on('error', (err: unknown) => options.onWorkerError?.(err));
  let closing = false;

  async function run(task: ExtractTask, signal?: AbortSignal): Promise<ExtractResult> {
    let reply: ExtractReply;
    try {
      reply = (await pool.run(task, signal === undefined ? {} : { signal })) as ExtractReply;
    } catch (e) {
      throw poolFailure(e, heapMb, signal, closing);
    }
    return unwrap(reply);
  }

  // One empty page per worker: the balancer hands each to a different idle worker, and a
  // worker answers only once its code has loaded (about a second: tsx, linkedom, pdf.js).
  const warm: ExtractTask = { body: new Uint8Array(0), contentType: 'text/plain', url: 'about:blank' };
  let warmed: Promise<void> | undefined;

  return {
    ready: () => (warmed ??= Promise.all(Array.from({ length: workers }, () => run(warm))).then(() => undefined)),
    run,
    extract: async (input, signal) => (await run(input, signal)).doc,
    queued: () => pool.queueSize,
    close: async () => {
      closing = true;
      await pool.destroy();
    },
  };
}
