import { afterEach, describe, expect, it } from 'vitest';
import type { CrawlCheckpoint } from '../../src/crawl/crawl-checkpoint.ts';
import { type JobProgress, readProgress } from '../../src/crawl/crawl-job-data.ts';
import { type CrawlJobRunner, createCrawlJobRunner } from '../../src/crawl/crawl-job-runner.ts';
import type { CrawlRunOptions, CrawlService } from '../../src/crawl/crawl-service.ts';
import { DomainError } from '../../src/domain/errors.ts';
import type { CrawlPage, CrawlRequest, CrawlResponse } from '../../src/schemas/crawl.ts';
import type { RequestContext } from '../../src/search/search-service.ts';
import { createMemoryCrawlJobStore } from '../../src/store/memory/memory-crawl-job-store.ts';
import type { CrawlJobRecord, CrawlJobStore } from '../../src/store/ports.ts';

/**
 * The runner against the reference store (the memory twin; every backend passes the same
 * contract) and a stand-in crawl service whose runs the test drives: what a run is given
 * (the checkpoint it resumes from, what is left of its time), what the store says as it
 * goes, and what happens when the lease is lost, the job cancelled or the process closed.
 * The clock is injected; waits are for conditions, never for a time.
 */

const quiet = { warn() {}, info() {} };
const runners: CrawlJobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

const page = (n: number): CrawlPage => ({
  url: `https://site.test/${n}`,
  final_url: `https://site.test/${n}`,
  title: `Page ${n}`,
  depth: 1,
  content: `content ${n}`,
  chars: 9,
  total_chars: 9,
  next_index: null,
  truncated: false,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
});

const checkpoint = (pages: number[]): CrawlCheckpoint => ({
  pages: pages.map((n, seq) => ({ seq, page: page(n) })),
  skipped: [],
  queue: [{ url: 'https://site.test/9', depth: 1 }],
  seen: [],
  returned: [],
  deeper: false,
  charsLeft: 1000,
  sitemapsRead: 0,
  pagesRead: pages.length,
  seq: pages.length,
  fetches: pages.length,
  charged: pages.length,
  stopped: null,
});

const response = (pages: CrawlPage[]): CrawlResponse => ({
  request_id: 'r',
  url: 'https://site.test/',
  pages,
  complete: true,
  stopped: null,
  pages_read: pages.length,
  sitemaps_read: 0,
  charged: pages.length,
  skipped: [],
  response_time_ms: 1,
});

interface Run {
  req: CrawlRequest;
  ctx: RequestContext;
  o: CrawlRunOptions;
  finish(out: CrawlResponse | Error): void;
}

/** A crawl service whose runs wait for the test to finish them (or for their signal). */
function standIn() {
  const runs: Run[] = [];
  let wake: (() => void) | undefined;
  const crawl: Pick<CrawlService, 'run'> = {
    run: (req, ctx, o = {}) =>
      new Promise<CrawlResponse>((resolve, reject) => {
        const run: Run = { req, ctx, o, finish: (out) => (out instanceof Error ? reject(out) : resolve(out)) };
        // As the real crawl does when its deadline or the caller's signal ends it: it answers what it has.
        ctx.signal?.addEventListener('abort', () => resolve(response([])), { once: true });
        runs.push(run);
        wake?.();
      }),
  };
  const nextRun = async (): Promise<Run> => {
    while (runs.length === 0) await new Promise<void>((r) => (wake = r));
    return runs.shift()!;
  };
  return { crawl, nextRun };
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 2000; i += 1) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('condition never met');
}

function setup(o: { workers?: number; clock?: { t: number }; store?: CrawlJobStore; leaseMs?: number } = {}) {
  const store = o.store ?? createMemoryCrawlJobStore();
  const clock = o.clock ?? { t: 1_000_000 };
  const { crawl, nextRun } = standIn();
  const runner = createCrawlJobRunner({
    store,
    crawl,
    workers: o.workers ?? 1,
    filterOf: () => undefined,
    log: quiet,
    leaseMs: o.leaseMs ?? 30_000,
    pollMs: 5,
    now: () => clock.t,
  });
  runners.push(runner);
  return { store, clock, runner, nextRun };
}

const add = async (store: CrawlJobStore, id: string, crawl: Partial<CrawlRequest> = {}, at = 1_000_000) => {
  const request = JSON.stringify({ crawl: { url: 'https://site.test/', ...crawl } });
  expect(await store.create({ id, owner: 'key1', request, createdAt: at, expiresAt: at + 86_400_000 }, 5)).toBe(true);
};
const get = async (store: CrawlJobStore, id: string): Promise<CrawlJobRecord> => (await store.get(id))!;
const progressOf = async (store: CrawlJobStore, id: string): Promise<JobProgress | undefined> =>
  readProgress(await get(store, id));

describe('crawl job runner', () => {
  it('claims a queued job, runs it as its owner, saves each checkpoint, and stores the answer', async () => {
    const { store, nextRun } = setup();
    await add(store, 'j1', { limit: 5 });
    const run = await nextRun();
    expect(run.ctx.caller).toBe('key1');
    expect(run.req).toEqual({ url: 'https://site.test/', limit: 5 });
    expect(run.o.job?.resume).toBeUndefined();
    // The default job timeout, counted from now.
    expect(run.o.job?.timeoutMs).toBe(300_000);
    run.o.job?.onProgress(checkpoint([1, 2]));
    const p = await until(
      () => progressOf(store, 'j1'),
      (v) => v?.checkpoint?.pages.length === 2,
    );
    expect(p?.startedAt).toBe(1_000_000);
    expect((await get(store, 'j1')).status).toBe('running');
    run.finish(response([page(1), page(2), page(3)]));
    const done = await until(
      () => get(store, 'j1'),
      (j) => j.status === 'completed',
    );
    expect(done.leaseOwner).toBeNull();
    const result = readProgress(done)?.result;
    expect(result?.pages.map((x) => x.title)).toEqual(['Page 1', 'Page 2', 'Page 3']);
    expect(result?.complete).toBe(true);
  });

  it('takes over a job whose runner died once its lease ends, from its last checkpoint, with what is left of its time', async () => {
    const clock = { t: 1_000_000 };
    const store = createMemoryCrawlJobStore();
    await add(store, 'j2', { timeout_ms: 200_000 });
    // A runner that claimed it, saved two pages 50 s into the job, then died.
    const dead = await store.claim('dead', clock.t, 30_000);
    expect(dead?.id).toBe('j2');
    const saved: JobProgress = { startedAt: clock.t - 50_000, checkpoint: checkpoint([1, 2]) };
    expect(
      await store.save('j2', 'dead', {
        progress: JSON.stringify(saved),
        status: 'running',
        now: clock.t,
        leaseMs: 30_000,
      }),
    ).toBe(true);
    const { nextRun } = setup({ store, clock });
    // Not while the lease holds.
    await new Promise((r) => setTimeout(r, 30));
    expect((await get(store, 'j2')).leaseOwner).toBe('dead');
    clock.t += 30_001;
    const run = await nextRun();
    expect(run.o.job?.resume).toEqual(saved.checkpoint);
    expect(run.o.job?.timeoutMs).toBe(200_000 - 50_000 - 30_001);
    const job = await get(store, 'j2');
    expect(job.attempts).toBe(2);
    expect(job.leaseOwner).not.toBe('dead');
    // The dead runner, were it to come back, may write nothing.
    expect(await store.save('j2', 'dead', { progress: '{}', status: 'completed', now: clock.t, leaseMs: 30_000 })).toBe(
      false,
    );
    run.finish(response([page(1), page(2), page(9)]));
    await until(
      () => get(store, 'j2'),
      (j) => j.status === 'completed',
    );
  });

  it('ends a job whose time ran out while nobody held it with its checkpoint, stopped by the deadline, without crawling', async () => {
    const clock = { t: 5_000_000 };
    const store = createMemoryCrawlJobStore();
    await add(store, 'j3', { timeout_ms: 60_000 }, clock.t - 100_000);
    await store.claim('dead', clock.t - 100_000, 30_000);
    const saved: JobProgress = { startedAt: clock.t - 100_000, checkpoint: checkpoint([4]) };
    await store.save('j3', 'dead', {
      progress: JSON.stringify(saved),
      status: 'running',
      now: clock.t - 90_000,
      leaseMs: 30_000,
    });
    setup({ store, clock });
    const done = await until(
      () => get(store, 'j3'),
      (j) => j.status === 'completed',
    );
    const result = readProgress(done)?.result;
    expect(result?.stopped).toBe('deadline');
    expect(result?.complete).toBe(false);
    expect(result?.pages.map((p) => p.title)).toEqual(['Page 4']);
  });

  it('stops the crawl and writes nothing more once another runner holds the job', async () => {
    const { store, clock, nextRun } = setup({ leaseMs: 30_000 });
    await add(store, 'j4');
    const run = await nextRun();
    // This runner stalled past its lease; another took the job.
    clock.t += 30_001;
    const other = await store.claim('other', clock.t, 30_000);
    expect(other?.id).toBe('j4');
    run.o.job?.onProgress(checkpoint([1]));
    await until(
      async () => run.ctx.signal?.aborted,
      (a) => a === true,
    );
    const job = await get(store, 'j4');
    expect(job.leaseOwner).toBe('other');
    expect(readProgress(job)?.checkpoint).toBeUndefined();
  });

  it('a failed crawl ends the job failed, with the status and message POST /v1/crawl would answer', async () => {
    const { store, nextRun } = setup();
    await add(store, 'j5');
    const run = await nextRun();
    run.finish(new DomainError('upstream', 'https://site.test/robots.txt could not be read, so nothing is crawled'));
    const done = await until(
      () => get(store, 'j5'),
      (j) => j.status === 'failed',
    );
    expect(readProgress(done)?.error).toEqual({
      status: 502,
      message: 'https://site.test/robots.txt could not be read, so nothing is crawled',
    });
  });

  it('drops a cancelled job at once: its crawl is stopped and its record stays cancelled', async () => {
    const { store, runner, clock, nextRun } = setup();
    await add(store, 'j6');
    const run = await nextRun();
    await store.cancel('j6', 'key1', clock.t);
    runner.drop('j6');
    expect(run.ctx.signal?.aborted).toBe(true);
    run.o.job?.onProgress(checkpoint([1]));
    await new Promise((r) => setTimeout(r, 20));
    const job = await get(store, 'j6');
    expect(job.status).toBe('cancelled');
    expect(readProgress(job)?.checkpoint).toBeUndefined();
  });

  it('on close hands its running jobs back at once (lease ended), and another runner goes on from the checkpoint', async () => {
    const clock = { t: 2_000_000 };
    const first = setup({ clock });
    await add(first.store, 'j7');
    const run = await first.nextRun();
    run.o.job?.onProgress(checkpoint([1, 2, 3]));
    await until(
      () => progressOf(first.store, 'j7'),
      (p) => p?.checkpoint?.pages.length === 3,
    );
    await first.runner.close();
    const handed = await get(first.store, 'j7');
    expect(handed.status).toBe('running');
    expect(handed.leaseUntil).toBeLessThanOrEqual(clock.t);
    // No time passes: a new runner (a restart, another replica) claims it at once.
    const second = setup({ clock, store: first.store });
    const again = await second.nextRun();
    expect(again.o.job?.resume?.pages.map((p) => p.page.title)).toEqual(['Page 1', 'Page 2', 'Page 3']);
    expect((await get(first.store, 'j7')).attempts).toBe(2);
  });

  it('runs at most `workers` jobs at once, oldest first, and none with 0 workers', async () => {
    const idle = setup({ workers: 0 });
    await add(idle.store, 'z');
    await new Promise((r) => setTimeout(r, 30));
    expect((await get(idle.store, 'z')).status).toBe('queued');

    const { store, nextRun } = setup({ workers: 2 });
    await add(store, 'a', {}, 1);
    await add(store, 'b', {}, 2);
    await add(store, 'c', {}, 3);
    const r1 = await nextRun();
    const r2 = await nextRun();
    expect([r1.ctx.requestId, r2.ctx.requestId].sort()).toEqual(['a', 'b']);
    await new Promise((r) => setTimeout(r, 30));
    expect((await get(store, 'c')).status).toBe('queued');
    r1.finish(response([]));
    const r3 = await nextRun();
    expect(r3.ctx.requestId).toBe('c');
  });
});

describe('crawl job runner: a record it cannot read', () => {
  it('ends it failed, once, instead of claiming it again and again', async () => {
    const store = createMemoryCrawlJobStore();
    await store.create({ id: 'bad', owner: 'key1', request: '{not json', createdAt: 1, expiresAt: 9e15 }, 5);
    const { nextRun } = setup({ store });
    const done = await until(
      () => get(store, 'bad'),
      (j) => j.status === 'failed',
    );
    expect(readProgress(done)?.error?.status).toBe(500);
    expect(done.attempts).toBe(1);
    await store.create(
      {
        id: 'good',
        owner: 'key1',
        request: JSON.stringify({ crawl: { url: 'https://site.test/' } }),
        createdAt: 2,
        expiresAt: 9e15,
      },
      5,
    );
    expect((await nextRun()).ctx.requestId).toBe('good');
  });
});
