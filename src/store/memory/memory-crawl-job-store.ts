import type { CrawlJobRecord, CrawlJobStore } from '../ports.ts';

const ACTIVE = new Set(['queued', 'running']);

/**
 * Crawl jobs in process memory: the reference CrawlJobStore. Each call runs without awaiting,
 * so a claim's read and write never interleave with another call's. Records handed out are
 * copies: a caller changing one changes nothing stored.
 */
export function createMemoryCrawlJobStore(): CrawlJobStore {
  const jobs = new Map<string, CrawlJobRecord>();
  const copy = (job: CrawlJobRecord | undefined) => (job === undefined ? undefined : { ...job });
  return {
    async create(job, maxActive) {
      if (jobs.has(job.id)) throw new Error(`crawl job ${job.id} exists already`);
      let active = 0;
      for (const j of jobs.values()) if (j.owner === job.owner && ACTIVE.has(j.status)) active += 1;
      if (active >= maxActive) return false;
      // The job's fields by name, not a spread: a wider object given here (TypeScript lets a
      // caller pass one) would otherwise be kept and handed back, which a table cannot do.
      jobs.set(job.id, {
        id: job.id,
        owner: job.owner,
        request: job.request,
        createdAt: job.createdAt,
        expiresAt: job.expiresAt,
        status: 'queued',
        progress: null,
        updatedAt: job.createdAt,
        leaseOwner: null,
        leaseUntil: null,
        attempts: 0,
      });
      return true;
    },
    async get(id) {
      return copy(jobs.get(id));
    },
    async claim(worker, now, leaseMs) {
      let oldest: CrawlJobRecord | undefined;
      for (const j of jobs.values()) {
        const free = j.status === 'queued' || (j.status === 'running' && (j.leaseUntil ?? 0) <= now);
        if (!free) continue;
        if (
          oldest === undefined ||
          j.createdAt < oldest.createdAt ||
          (j.createdAt === oldest.createdAt && j.id < oldest.id)
        )
          oldest = j;
      }
      if (oldest === undefined) return undefined;
      Object.assign(oldest, {
        status: 'running',
        leaseOwner: worker,
        leaseUntil: now + leaseMs,
        attempts: oldest.attempts + 1,
        updatedAt: now,
      });
      return copy(oldest);
    },
    async save(id, worker, u) {
      const j = jobs.get(id);
      if (j === undefined || j.status !== 'running' || j.leaseOwner !== worker) return false;
      const running = u.status === 'running';
      Object.assign(j, {
        progress: u.progress,
        status: u.status,
        updatedAt: u.now,
        leaseOwner: running ? worker : null,
        leaseUntil: running ? u.now + u.leaseMs : null,
      });
      return true;
    },
    async cancel(id, owner, now) {
      const j = jobs.get(id);
      if (j === undefined || j.owner !== owner) return undefined;
      if (ACTIVE.has(j.status))
        Object.assign(j, { status: 'cancelled', leaseOwner: null, leaseUntil: null, updatedAt: now });
      return copy(j);
    },
    async purge(now) {
      let n = 0;
      for (const [id, j] of jobs) {
        if (j.expiresAt <= now) {
          jobs.delete(id);
          n += 1;
        }
      }
      return n;
    },
  };
}
