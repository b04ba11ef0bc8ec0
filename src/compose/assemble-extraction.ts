import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import type { Closers } from '../domain/closers.ts';
import type { ExtractedDocument, ExtractInput } from '../extract/extract-document.ts';
import { createExtractPool, type ExtractPool } from '../fetch/extract-pool.ts';
import type { ExtractRun } from '../fetch/extract-task.ts';
import type { ScoutMetrics } from '../metrics/scout-metrics.ts';

/** Bytes to markdown, as the fetch service calls it. */
export type ExtractPage = (input: ExtractInput, signal?: AbortSignal) => Promise<ExtractedDocument>;

export interface Extraction {
  /** Every page's extraction, timed into the metrics (the wait for a worker included). */
  extract: ExtractPage;
  /** The same extraction, which can also read an HTML page's links (a site walk's pages), timed too. */
  run: ExtractRun;
  /** Pages waiting for a free worker (0 without a pool). */
  queued(): number;
  /** Resolves once every worker has loaded its code (at once without a pool). */
  ready(): Promise<void>;
}

/**
 * Pages are extracted in worker threads (docs/operations.md, "Fetch workers"), started here,
 * before storage, so they load their code while the rest starts; their closer is registered
 * before every other but tracing's, so they close after the requests that use them.
 * `replacement` (ScoutOptions.extract, set only by bench/fetch.ts) stands in for the pool: no
 * threads are started.
 */
export function assembleExtraction(
  config: Pick<ScoutConfig, 'fetchWorkers' | 'fetchWorkerHeapMb' | 'fetchWorkerNice'>,
  replacement: ExtractPage | undefined,
  deps: { logger: Logger; metrics: ScoutMetrics },
  closers: Closers,
): Extraction {
  if (replacement !== undefined) {
    // No links from the replacement (bench/fetch.ts): a site map then finds URLs in sitemaps and markdown only.
    const run: ExtractRun = async (task, signal) => ({ doc: await replacement(task, signal) });
    return timed(run, undefined, deps.metrics);
  }
  const pool = createExtractPool({
    workers: config.fetchWorkers,
    heapMb: config.fetchWorkerHeapMb,
    nice: config.fetchWorkerNice,
    onWorkerError: (err) => deps.logger.error({ err }, 'fetch worker lost while idle; replaced'),
  });
  closers.add(() => pool.close());
  return timed(pool.run, pool, deps.metrics);
}

function timed(extractRun: ExtractRun, pool: ExtractPool | undefined, metrics: ScoutMetrics): Extraction {
  const run: ExtractRun = async (task, signal) => {
    const started = performance.now();
    try {
      return await extractRun(task, signal);
    } finally {
      metrics.extract((performance.now() - started) / 1000);
    }
  };
  return {
    extract: async (input, signal) => (await run(input, signal)).doc,
    run,
    queued: () => pool?.queued() ?? 0,
    ready: async () => {
      await pool?.ready();
    },
  };
}
