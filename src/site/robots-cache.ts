import type { HostPacer } from './host-pacer.ts';
import { loadRobots, type OriginRobots } from './robots-rules.ts';

/**
 * One robots.txt per origin for the length of a crawl, fetched once (concurrent askers share
 * the request). The request is paced like any other to that host, and the origin's
 * Crawl-delay then slows the host down.
 */
export function createRobotsCache(fetchText: (url: string) => Promise<string>, pacer: HostPacer) {
  const byOrigin = new Map<string, Promise<OriginRobots>>();
  return {
    forUrl(url: string): Promise<OriginRobots> {
      const { origin, hostname } = new URL(url);
      let robots = byOrigin.get(origin);
      if (robots === undefined) {
        robots = pacer
          .run(hostname, () => loadRobots(origin, fetchText))
          .then((r) => {
            if (r.crawlDelayMs !== undefined) pacer.slowDown(hostname, r.crawlDelayMs);
            return r;
          });
        byOrigin.set(origin, robots);
      }
      return robots;
    },
  };
}

export type RobotsCache = ReturnType<typeof createRobotsCache>;
