import { describe, expect, it } from 'vitest';
import type { FetchCapture } from '../../src/site/fetch-capture.ts';
import type { PipelineFetch } from '../../src/site/site-fetch.ts';
import { withWalk, type WalkServiceDeps } from '../../src/site/walk-call.ts';
import { createMemoryRateLimiter } from '../../src/store/memory/memory-rate-limiter.ts';

/**
 * A walk's charge against the caller's bucket (the reference limiter, 600 a minute: one
 * request back every 100 ms): a walk someone waits on stops at an empty bucket; an
 * asynchronous job's walk (waitForRate) waits for the bucket, unless its deadline comes
 * first. No page is fetched, so the pipeline is never called.
 */

const never = (() => {
  throw new Error('no fetch in these tests');
}) as unknown as PipelineFetch;

async function drained() {
  const rateLimiter = createMemoryRateLimiter(600);
  // Empty the caller's bucket.
  while ((await rateLimiter.consume('key1', 1)).allowed);
  const deps: WalkServiceDeps = { fetch: never, capture: {} as FetchCapture, rateLimiter, delayMs: 0 };
  return deps;
}
const ctx = { requestId: 'r', startedAt: 0, caller: 'key1' };

describe('withWalk charge', () => {
  it('refuses at an empty bucket when someone waits on the walk', async () => {
    const deps = await drained();
    const ok = await withWalk(deps, ctx, { timeoutMs: 60_000, what: 'the crawl' }, (_s, call) => call.charge());
    expect(ok).toBe(false);
  });

  it('waits for the bucket in a job (waitForRate), then takes the request', async () => {
    const deps = await drained();
    const ok = await withWalk(deps, ctx, { timeoutMs: 60_000, what: 'the crawl', waitForRate: true }, (_s, call) =>
      call.charge(),
    );
    expect(ok).toBe(true);
  });

  it('stops waiting when the walk is stopped, without taking a request', async () => {
    const deps = await drained();
    const gone = new AbortController();
    const ok = await withWalk(
      deps,
      { ...ctx, signal: gone.signal },
      { timeoutMs: 60_000, what: 'the crawl', waitForRate: true },
      (_s, call) => {
        const charged = call.charge();
        gone.abort();
        return charged;
      },
    );
    expect(ok).toBe(false);
  });
});
