import { describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import type { CrawlJobRecord, CrawlJobStore, NewCrawlJob } from '../../../src/store/ports.ts';
import { DAY_MS, newTag, T0 } from './contract-fixtures.ts';

/** A new job of `owner`, created at T0 + `at` ms, expiring a day later unless told. */
const newJob = (id: string, owner: string, at = 0, over: Partial<NewCrawlJob> = {}): NewCrawlJob => ({
  id,
  owner,
  request: '{"url":"https://example.com/","limit":10}',
  createdAt: T0 + at,
  expiresAt: T0 + at + DAY_MS,
  ...over,
});

/** The record create() makes of `job`. */
const queued = (job: NewCrawlJob): CrawlJobRecord => ({
  ...job,
  status: 'queued',
  progress: null,
  updatedAt: job.createdAt,
  leaseOwner: null,
  leaseUntil: null,
  attempts: 0,
});

const LEASE = 30_000;

/** Creates each job (under a bound no test reaches) and checks it was added. */
const createAll = async (s: CrawlJobStore, ...jobs: NewCrawlJob[]): Promise<void> => {
  for (const j of jobs) expect(await s.create(j, 100)).toBe(true);
};

/**
 * The CrawlJobStore contract. `make` opens two handles on one store, as two processes would
 * (two connections or pools; the memory twin, one process, hands the same store twice). A
 * claim takes from every job in the store, so each `make` hands a store holding no job
 * (a fresh one, or one emptied); ids and owners are tagged all the same.
 */
export function crawlJobStoreContract(backend: string, make: () => Promise<[CrawlJobStore, CrawlJobStore]>): void {
  describe(`CrawlJobStore contract: ${backend}`, () => {
    it('creates a queued job and gives it back as written, to either handle; an unknown id is undefined', async () => {
      const [a, b] = await make();
      const t = newTag();
      const job = newJob(`job_${t}`, `key_${t}`, 5, { request: '{"url":"https://ex.example/ü","note":"😀 \\" \'"}' });
      expect(await a.create(job, 1)).toBe(true);
      expect(await b.get(job.id)).toEqual(queued(job));
      expect(await a.get(job.id)).toEqual(queued(job));
      expect(await b.get(`nope_${t}`)).toBeUndefined();
    });

    it('refuses a duplicate id from either handle, even for another owner or an owner at its bound', async () => {
      const [a, b] = await make();
      const t = newTag();
      const job = newJob(`job_${t}`, `key_${t}`);
      expect(await a.create(job, 1)).toBe(true);
      await expect(b.create({ ...job, owner: `other_${t}` }, 5)).rejects.toThrow();
      await expect(b.create(job, 5)).rejects.toThrow();
      // The owner is full (1 of 1): the id in use still throws rather than answering false.
      await expect(a.create({ ...job, request: 'changed' }, 1)).rejects.toThrow();
      expect(await a.get(job.id)).toEqual(queued(job));
    });

    it("bounds each owner's queued and running jobs at maxActive; finished ones and other owners' do not count", async () => {
      const [a, b] = await make();
      const t = newTag();
      const owner = `key_${t}`;
      const [j1, j2, j3] = [1, 2, 3].map((n) => newJob(`job${n}_${t}`, owner, n));
      expect(await a.create(defined(j1, 'j1'), 2)).toBe(true);
      expect(await b.create(defined(j2, 'j2'), 2)).toBe(true);
      expect(await a.create(defined(j3, 'j3'), 2)).toBe(false);
      expect(await b.get(`job3_${t}`)).toBeUndefined();
      // Another owner has a bound of its own.
      expect(await b.create(newJob(`other_${t}`, `key2_${t}`, 10), 2)).toBe(true);
      expect(await a.create(newJob(`job4_${t}`, owner, 4), 3)).toBe(true);

      // Running counts: j1 is taken (the oldest), and the owner stays at 3 of 3.
      const run = defined(await a.claim(`w_${t}`, T0 + 100, LEASE), 'a claim');
      expect(run.id).toBe(`job1_${t}`);
      expect(await b.create(newJob(`job5_${t}`, owner, 5), 3)).toBe(false);
      // Completed, failed and cancelled do not count: each frees one place.
      expect(
        await a.save(run.id, `w_${t}`, { progress: 'done', status: 'completed', now: T0 + 200, leaseMs: LEASE }),
      ).toBe(true);
      expect(await b.create(newJob(`job5_${t}`, owner, 5), 3)).toBe(true);
      expect(await a.create(newJob(`job6_${t}`, owner, 6), 3)).toBe(false);
      expect((await a.cancel(`job2_${t}`, owner, T0 + 300))?.status).toBe('cancelled');
      expect(await a.create(newJob(`job6_${t}`, owner, 6), 3)).toBe(true);
      const next = defined(await b.claim(`w_${t}`, T0 + 400, LEASE), 'a second claim');
      expect(next.id).toBe(`job4_${t}`);
      expect(
        await b.save(next.id, `w_${t}`, { progress: 'boom', status: 'failed', now: T0 + 500, leaseMs: LEASE }),
      ).toBe(true);
      expect(await b.create(newJob(`job7_${t}`, owner, 7), 3)).toBe(true);
      expect(await b.create(newJob(`job8_${t}`, owner, 8), 3)).toBe(false);
    });

    it('keeps the bound when creates for one owner race from both handles', async () => {
      const [a, b] = await make();
      const t = newTag();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).create(newJob(`job${i}_${t}`, `key_${t}`, i), 3)),
      );
      expect(results.filter(Boolean)).toHaveLength(3);
      const stored = await Promise.all(results.map((_, i) => a.get(`job${i}_${t}`)));
      expect(stored.filter((j) => j !== undefined)).toHaveLength(3);
      expect(stored.map((j) => j !== undefined)).toEqual(results);
    });

    it('claims the oldest job first (by createdAt, then id), leasing it: running, attempts 1, updatedAt now', async () => {
      const [a, b] = await make();
      const t = newTag();
      const later = newJob(`a_${t}`, `key_${t}`, 20);
      const second = newJob(`z_${t}`, `key2_${t}`, 10);
      const first = newJob(`b_${t}`, `key_${t}`, 10);
      await createAll(a, later, second, first);
      const now = T0 + 1000;
      const claimed = await b.claim(`w1_${t}`, now, LEASE);
      const leased = (job: NewCrawlJob, worker: string): CrawlJobRecord => ({
        ...queued(job),
        status: 'running',
        leaseOwner: worker,
        leaseUntil: now + LEASE,
        attempts: 1,
        updatedAt: now,
      });
      expect(claimed).toEqual(leased(first, `w1_${t}`));
      expect(await a.get(first.id)).toEqual(leased(first, `w1_${t}`));
      expect(await a.claim(`w2_${t}`, now, LEASE)).toEqual(leased(second, `w2_${t}`));
      expect(await b.claim(`w3_${t}`, now, LEASE)).toEqual(leased(later, `w3_${t}`));
      expect(await a.claim(`w4_${t}`, now, LEASE)).toBeUndefined();
    });

    it("passes over a leased job until leaseUntil <= now; then another worker takes it over and the first one's save is refused", async () => {
      const [a, b] = await make();
      const t = newTag();
      const job = newJob(`job_${t}`, `key_${t}`);
      await createAll(a, job);
      const mine = defined(await a.claim(`w1_${t}`, T0 + 10, 1000), 'the first claim');
      expect(mine.leaseUntil).toBe(T0 + 1010);
      expect(await b.claim(`w2_${t}`, T0 + 1009, 1000)).toBeUndefined();
      expect(await a.claim(`w1_${t}`, T0 + 1009, 1000)).toBeUndefined();
      const theirs = defined(await b.claim(`w2_${t}`, T0 + 1010, 1000), 'the take-over');
      expect(theirs).toMatchObject({
        id: job.id,
        status: 'running',
        leaseOwner: `w2_${t}`,
        leaseUntil: T0 + 2010,
        attempts: 2,
        updatedAt: T0 + 1010,
      });
      expect(
        await a.save(job.id, `w1_${t}`, { progress: 'late', status: 'running', now: T0 + 1100, leaseMs: 1000 }),
      ).toBe(false);
      expect(
        await a.save(job.id, `w1_${t}`, { progress: 'late', status: 'completed', now: T0 + 1100, leaseMs: 1 }),
      ).toBe(false);
      expect(await b.get(job.id)).toEqual(theirs);
      expect(await b.save(job.id, `w2_${t}`, { progress: 'p', status: 'running', now: T0 + 1200, leaseMs: 1000 })).toBe(
        true,
      );
    });

    it('hands each job to one claim only when claims race from both handles', async () => {
      const [a, b] = await make();
      const t = newTag();
      const ids = Array.from({ length: 10 }, (_, i) => `job${i}_${t}`);
      // One creation time for all: the claims also race on the id order.
      await createAll(a, ...ids.map((id, i) => newJob(id, `key${i % 3}_${t}`)));
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claim(`w${i}_${t}`, T0 + 100, LEASE)),
      );
      const taken = claims.filter((c) => c !== undefined);
      expect(taken).toHaveLength(10);
      expect(taken.map((c) => c.id).sort()).toEqual([...ids].sort());
      for (const c of taken) expect(c).toMatchObject({ status: 'running', attempts: 1 });
      // Each job is leased to the worker its claim says.
      for (const c of taken) expect((await b.get(c.id))?.leaseOwner).toBe(c.leaseOwner);
      expect(new Set(taken.map((c) => c.leaseOwner)).size).toBe(10);
    });

    it('saves progress and status while leased (running extends the lease, even past its end if nobody claimed it); completed or failed ends it and refuses later saves', async () => {
      const [a, b] = await make();
      const t = newTag();
      const done = newJob(`done_${t}`, `key_${t}`, 1);
      const bad = newJob(`bad_${t}`, `key_${t}`, 2);
      await createAll(a, done, bad);
      const w = `w_${t}`;
      expect((await a.claim(w, T0 + 100, 500))?.id).toBe(done.id);
      expect(await b.save(done.id, w, { progress: 'p1', status: 'running', now: T0 + 200, leaseMs: 500 })).toBe(true);
      expect(await a.get(done.id)).toEqual({
        ...queued(done),
        status: 'running',
        progress: 'p1',
        updatedAt: T0 + 200,
        leaseOwner: w,
        leaseUntil: T0 + 700,
        attempts: 1,
      });
      // Past the lease's end, but no other claim came: the worker still holds the job.
      expect(await a.save(done.id, w, { progress: 'p2', status: 'running', now: T0 + 900, leaseMs: 500 })).toBe(true);
      expect(await b.get(done.id)).toMatchObject({ progress: 'p2', leaseUntil: T0 + 1400, updatedAt: T0 + 900 });
      expect(await a.save(done.id, w, { progress: 'result', status: 'completed', now: T0 + 1000, leaseMs: 500 })).toBe(
        true,
      );
      const completed = {
        ...queued(done),
        status: 'completed',
        progress: 'result',
        updatedAt: T0 + 1000,
        leaseOwner: null,
        leaseUntil: null,
        attempts: 1,
      };
      expect(await b.get(done.id)).toEqual(completed);
      expect(await b.save(done.id, w, { progress: 'again', status: 'running', now: T0 + 1100, leaseMs: 500 })).toBe(
        false,
      );
      expect(await a.get(done.id)).toEqual(completed);

      expect((await b.claim(w, T0 + 2000, 500))?.id).toBe(bad.id);
      expect(await a.save(bad.id, w, { progress: 'why', status: 'failed', now: T0 + 2100, leaseMs: 500 })).toBe(true);
      expect(await b.get(bad.id)).toMatchObject({
        status: 'failed',
        progress: 'why',
        leaseOwner: null,
        leaseUntil: null,
      });
      expect(await b.save(bad.id, w, { progress: 'x', status: 'completed', now: T0 + 2200, leaseMs: 500 })).toBe(false);
      expect((await a.get(bad.id))?.progress).toBe('why');
      // A finished job is never claimed again, whatever the time.
      expect(await a.claim(w, T0 + DAY_MS, 500)).toBeUndefined();
    });

    it('refuses, writing nothing, a save by a worker not holding the job, on a job never claimed, or of an unknown id', async () => {
      const [a, b] = await make();
      const t = newTag();
      const held = newJob(`held_${t}`, `key_${t}`, 1);
      const waiting = newJob(`waiting_${t}`, `key_${t}`, 2);
      await createAll(a, held, waiting);
      const claimed = defined(await a.claim(`w1_${t}`, T0 + 100, LEASE), 'a claim');
      const update = { progress: 'x', status: 'completed', now: T0 + 200, leaseMs: LEASE } as const;
      expect(await b.save(held.id, `w2_${t}`, update)).toBe(false);
      expect(await a.get(held.id)).toEqual(claimed);
      expect(await b.save(waiting.id, `w1_${t}`, { ...update, status: 'running' })).toBe(false);
      expect(await a.get(waiting.id)).toEqual(queued(waiting));
      expect(await a.save(`nope_${t}`, `w1_${t}`, update)).toBe(false);
      expect(await a.get(`nope_${t}`)).toBeUndefined();
    });

    it("cancels its owner's queued or running job, ending the lease: the runner's next save is refused", async () => {
      const [a, b] = await make();
      const t = newTag();
      const owner = `key_${t}`;
      const running = newJob(`running_${t}`, owner, 1);
      const waiting = newJob(`waiting_${t}`, owner, 2);
      await createAll(a, running, waiting);
      defined(await a.claim(`w_${t}`, T0 + 100, LEASE), 'a claim');
      const cancelledQueued = { ...queued(waiting), status: 'cancelled', updatedAt: T0 + 200 };
      expect(await b.cancel(waiting.id, owner, T0 + 200)).toEqual(cancelledQueued);
      expect(await a.get(waiting.id)).toEqual(cancelledQueued);
      const cancelledRunning = {
        ...queued(running),
        status: 'cancelled',
        updatedAt: T0 + 300,
        attempts: 1,
      };
      expect(await b.cancel(running.id, owner, T0 + 300)).toEqual(cancelledRunning);
      expect(
        await a.save(running.id, `w_${t}`, { progress: 'p', status: 'running', now: T0 + 400, leaseMs: LEASE }),
      ).toBe(false);
      expect(await a.get(running.id)).toEqual(cancelledRunning);
      // Neither is claimed again, even once the cancelled lease would have ended.
      expect(await b.claim(`w2_${t}`, T0 + DAY_MS, LEASE)).toBeUndefined();
    });

    it("answers undefined to another owner's cancel, changing nothing, and gives a finished job back unchanged", async () => {
      const [a, b] = await make();
      const t = newTag();
      const owner = `key_${t}`;
      const done = newJob(`done_${t}`, owner, 1);
      const waiting = newJob(`waiting_${t}`, owner, 2);
      await createAll(a, done, waiting);
      expect(await b.cancel(waiting.id, `key2_${t}`, T0 + 50)).toBeUndefined();
      expect(await a.get(waiting.id)).toEqual(queued(waiting));
      expect(await b.cancel(`nope_${t}`, owner, T0 + 50)).toBeUndefined();

      defined(await a.claim(`w_${t}`, T0 + 100, LEASE), 'a claim');
      expect(
        await a.save(done.id, `w_${t}`, { progress: 'r', status: 'completed', now: T0 + 200, leaseMs: LEASE }),
      ).toBe(true);
      const completed = defined(await a.get(done.id), 'the completed job');
      expect(await b.cancel(done.id, owner, T0 + 300)).toEqual(completed);
      expect(await a.get(done.id)).toEqual(completed);
      const cancelled = defined(await b.cancel(waiting.id, owner, T0 + 400), 'the cancel');
      expect(await a.cancel(waiting.id, owner, T0 + 500)).toEqual(cancelled);
      expect(cancelled.updatedAt).toBe(T0 + 400);
    });

    it('purges exactly the jobs whose expiresAt <= now, in any state, and counts them', async () => {
      const [a, b] = await make();
      const t = newTag();
      const owner = `key_${t}`;
      const now = T0 + 10_000;
      const at = (id: string, createdAt: number, expiresAt: number) =>
        newJob(`${id}_${t}`, owner, createdAt, { expiresAt: T0 + expiresAt });
      const gone = [at('running', 1, 5000), at('done', 2, 6000), at('queued', 3, 7000), at('edge', 4, 10_000)];
      const kept = [at('later', 5, 10_001), at('cancelled', 6, 20_000)];
      await createAll(a, ...gone, ...kept);
      expect((await a.claim(`w1_${t}`, T0 + 100, LEASE))?.id).toBe(`running_${t}`);
      expect((await b.claim(`w2_${t}`, T0 + 100, LEASE))?.id).toBe(`done_${t}`);
      expect(
        await b.save(`done_${t}`, `w2_${t}`, { progress: 'r', status: 'completed', now: T0 + 200, leaseMs: 1 }),
      ).toBe(true);
      expect(await a.cancel(`cancelled_${t}`, owner, T0 + 300)).toBeDefined();

      expect(await b.purge(now)).toBe(4);
      for (const j of gone) expect(await a.get(j.id)).toBeUndefined();
      for (const j of kept) expect(await a.get(j.id)).toBeDefined();
      // The purged job's runner learns it at its next save.
      expect(await a.save(`running_${t}`, `w1_${t}`, { progress: 'p', status: 'running', now, leaseMs: LEASE })).toBe(
        false,
      );
      expect(await a.purge(now)).toBe(0);
      expect(await a.purge(T0 + 20_000)).toBe(2);
    });

    it('keeps a large progress text (3 MB) exactly', async () => {
      const [a, b] = await make();
      const t = newTag();
      const job = newJob(`job_${t}`, `key_${t}`);
      await createAll(a, job);
      defined(await a.claim(`w_${t}`, T0 + 1, LEASE), 'a claim');
      // Several byte widths, quotes, backslashes and line breaks, and no repeat a codec could lean on.
      const parts: string[] = [];
      for (let i = 0, size = 0; size < 3_000_000; i++) {
        const part = `{"i":${i},"t":"é€😀 \\"q\\" \\\\ ${(i * 2654435761) % 1_000_003}"}\n`;
        parts.push(part);
        size += part.length;
      }
      const progress = parts.join('');
      expect(await a.save(job.id, `w_${t}`, { progress, status: 'completed', now: T0 + 2, leaseMs: LEASE })).toBe(true);
      const back = defined(await b.get(job.id), 'the job');
      expect(back.progress?.length).toBe(progress.length);
      expect(back.progress === progress).toBe(true);
    });

    it('hands out copies, and keeps no more of what create is given than a job', async () => {
      const [a] = await make();
      const t = newTag();
      // A caller may hand create a wider object than NewCrawlJob (TypeScript lets it).
      const given = { ...newJob(`job_${t}`, `key_${t}`), note: 'not a field' };
      await createAll(a, given);
      given.request = 'changed after';
      const stored = queued(newJob(`job_${t}`, `key_${t}`));
      expect(await a.get(given.id)).toEqual(stored);
      const got = defined(await a.get(given.id), 'the job');
      got.status = 'failed';
      got.progress = 'mine';
      const claimed = defined(await a.claim(`w_${t}`, T0 + 10, LEASE), 'a claim');
      claimed.leaseOwner = 'thief';
      claimed.attempts = 99;
      expect(await a.save(given.id, `w_${t}`, { progress: 'p', status: 'running', now: T0 + 20, leaseMs: LEASE })).toBe(
        true,
      );
      const cancelled = defined(await a.cancel(given.id, `key_${t}`, T0 + 30), 'the cancel');
      cancelled.status = 'running';
      expect(await a.get(given.id)).toEqual({
        ...stored,
        status: 'cancelled',
        progress: 'p',
        updatedAt: T0 + 30,
        attempts: 1,
      });
    });
  });
}
