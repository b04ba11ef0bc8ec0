import type { ScoutConfig } from '../scout-settings.ts';
import type { Activity } from '../admin/activity.ts';
import type { Closers } from '../domain/closers.ts';
import { createByteBudget, promisedShare } from '../fetch/byte-budget.ts';
import { currentByteAccount } from '../fetch/byte-scope.ts';
import { withFetchCapacity } from '../fetch/fetch-capacity.ts';
import { createFetchPage, type FetchPage, type PageFetcher } from '../fetch/fetch-page.ts';
import { createFetchService } from '../fetch/fetch-service.ts';
import { createHostGate } from '../fetch/host-gate.ts';
import { ownDocsReader } from '../fetch/own-docs.ts';
import type { Resolver } from '../fetch/url-guard.ts';
import { countedFetch } from '../metrics/counted.ts';
import type { ScoutMetrics } from '../metrics/scout-metrics.ts';
import type { Sponsored } from '../sponsored/create-sponsored.ts';
import type { ExtractRun } from '../fetch/extract-task.ts';
import { createFetchCapture, type FetchCapture } from '../site/fetch-capture.ts';

export interface Fetching {
  /** One page fetch through every layer below: what the content stage fetches with. */
  fetch: PageFetcher['fetch'];
  /** POST /v1/fetch's service (and MCP's fetch_page), over `fetch`. */
  page: FetchPage;
  /** What a site walk (POST /v1/map) asks more of `fetch`: links, raw bodies, redirect checks (src/site/fetch-capture.ts). */
  capture: FetchCapture;
  /** Fetches running and waiting in line now (the fetch capacity's state). */
  line(): { active: number; queued: number };
}

/**
 * The fetch pipeline, one capacity for POST /v1/fetch and the advanced stage's pages
 * (docs/operations.md). Its layers, innermost first:
 *   1. the fetch service: click URLs resolved, Scout's own docs answered from `docsDir`, the
 *      url guard, the HTTP fetch, whose every request waits at the per-host gate and charges
 *      the byte account of the fetch it serves, then extraction;
 *   2. the fetch capacity: fair in-flight slots, the line bounded by the deadline, and the
 *      byte budget those accounts draw on;
 *   3. counting: every fetch's outcome into the metrics and the dashboard's activity;
 *   4. the route's service (createFetchPage) on top; the content stage calls layer 3 too.
 */
export function assembleFetch(
  config: ScoutConfig,
  options: { docsDir: string; resolver?: Resolver | undefined },
  deps: { extract: ExtractRun; sponsored: Sponsored; metrics: ScoutMetrics; activity: Activity },
  closers: Closers,
): Fetching {
  const { sponsored, metrics, activity } = deps;
  // Fetches outside a site walk's capture go through its hooks untouched.
  const capture = createFetchCapture(deps.extract);
  const service = createFetchService({
    resolveClickUrl: sponsored.resolveClickUrl,
    ownDocs: ownDocsReader(options.docsDir),
    allowCidrs: config.fetchAllowCidrs,
    timeoutMs: config.fetchTimeoutMs,
    extract: capture.extract,
    http: {
      hostGate: createHostGate(config.fetchPerHost),
      byteAccount: currentByteAccount,
      refuseType: capture.refuseType,
      redirectCheck: capture.redirectCheck,
    },
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });
  const fetchBytes = config.fetchBufferMb * 1024 * 1024;
  const fetcher = withFetchCapacity(service, {
    concurrency: config.fetchConcurrency,
    queue: config.fetchQueue,
    timeoutMs: config.fetchTimeoutMs,
    bytes: createByteBudget(fetchBytes, promisedShare(fetchBytes, config.fetchConcurrency)),
  });
  closers.add(() => fetcher.close());
  const counted = countedFetch(fetcher.fetch.bind(fetcher), (url, outcome, chars) => {
    metrics.fetch(outcome, chars);
    activity.fetch(url, outcome);
  });
  return {
    fetch: counted,
    page: createFetchPage({ fetch: counted }),
    capture,
    line: () => ({ active: fetcher.active, queued: fetcher.queued }),
  };
}
