import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlJob } from '../../src/schemas/crawl-job.ts';
import { killStarted, within } from '../helpers/scout-process.ts';
import { html, type Site, startMapSite } from '../map/map-fixture.ts';
import { DATABASE_URL, call, cleanUp, type ReplicaGroup, startReplicas } from './replicas-kit.ts';

/**
 * Asynchronous crawl jobs across replicas (docs/scale-out.md): two real `scout serve`
 * processes on one PostgreSQL schema. A job started on one is read on both; when the replica
 * running it is killed (SIGKILL: no hand-back), the other takes it over once its lease ends
 * (SCOUT_CRAWL_JOB_LEASE_S=3) and finishes it from its last checkpoint, every page once.
 * Waits are for states, bounded only against a hang.
 */

const PAGES = ['/', '/p1', '/p2', '/p3', '/p4', '/p5', '/p6', '/p7', '/p8', '/p9'];

describe.skipIf(!DATABASE_URL)('crawl jobs on replicas sharing PostgreSQL', () => {
  let group: ReplicaGroup;
  let site: Site;
  let key: string;

  beforeAll(async () => {
    site = await startMapSite(
      Object.fromEntries(PAGES.map((p) => [p, html(`Page ${p}`, p === '/' ? PAGES.slice(1) : ['/'])])),
    );
    group = await startReplicas(
      'postgres',
      {
        SCOUT_RATE_LIMIT_RPM: '100000',
        SCOUT_CRAWL_JOB_LEASE_S: '3',
        // Paced so the crawl is still running when its replica is killed.
        SCOUT_MAP_DELAY_MS: '400',
      },
      2,
    );
    key = (await group.createKey('crawler')).key;
  }, 300_000);

  afterAll(async () => {
    await cleanUp();
    killStarted();
    await site?.server.close();
  }, 30_000);

  const read = (port: number, id: string) => call<CrawlJob>(port, 'GET', `/v1/crawl/${id}`, key);
  async function until(port: number, id: string, ok: (j: CrawlJob) => boolean): Promise<CrawlJob> {
    return within(
      120_000,
      `job ${id} on port ${port}`,
      (async () => {
        for (;;) {
          const res = await read(port, id);
          expect(res.status).toBe(200);
          if (ok(res.body)) return res.body;
          await new Promise((r) => setTimeout(r, 50));
        }
      })(),
    );
  }

  it('is read on every replica, and taken over from its last page when its replica dies', async () => {
    const [a, b] = group.ports as [number, number];
    const started = await call<CrawlJob>(a, 'POST', '/v1/crawl', key, {
      url: `${site.origin}/`,
      max_depth: 1,
      limit: 10,
      async: true,
    });
    expect(started.status).toBe(202);
    const id = started.body.id;
    const partway = await until(b, id, (j) => j.pages.length >= 2);
    expect(partway.status).toBe('running');
    // Both replicas answer the same job.
    const onA = await read(a, id);
    expect(onA.body.id).toBe(id);
    expect(onA.body.pages.length).toBeGreaterThanOrEqual(2);

    const runner = group.processes.findIndex((p) =>
      new RegExp(`"job":"${id}"[^\\n]*crawl job started`).test(p.stdout()),
    );
    expect(runner, 'the replica that logged the job').toBeGreaterThanOrEqual(0);
    const dying = group.processes[runner]!;
    dying.child.kill('SIGKILL');
    await within(15_000, 'the killed replica to exit', dying.exited);
    const survivor = group.ports[1 - runner]!;
    const beforeDeath = (await read(survivor, id)).body;

    const done = await until(survivor, id, (j) => j.status !== 'queued' && j.status !== 'running');
    expect(done.status).toBe('completed');
    expect(done.complete).toBe(true);
    const got = done.pages.map((p) => p.url.replace(site.origin, ''));
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual([...PAGES].sort());
    // What the dead replica had saved is kept, first, as it was.
    expect(got.slice(0, beforeDeath.pages.length)).toEqual(
      beforeDeath.pages.map((p) => p.url.replace(site.origin, '')),
    );
    expect(group.processes[1 - runner]!.stdout()).toMatch(
      new RegExp(`"job":"${id}","attempt":2[^\\n]*crawl job taken over`),
    );
  });
});
