import type { CrawlPage, CrawlStop } from '../schemas/crawl.ts';

/**
 * Where a crawl stands, taken after each page it finishes (src/crawl/crawl-site.ts): enough
 * for another process to go on from there (an asynchronous job taken over after its runner
 * died, src/crawl/crawl-job-runner.ts). Plain data: it is stored as JSON.
 *
 * The pages in flight when it was taken are put back at the head of the queue, so a crawl
 * resumed from it reads them again (their first fetch is lost with the process that made it,
 * and stays counted in pagesRead and charged: it was made and charged).
 */
export interface CrawlCheckpoint {
  /** Pages kept so far, with their place in crawl order. */
  pages: { seq: number; page: CrawlPage }[];
  skipped: { url: string; reason: string }[];
  /** URLs still to read and their depth, in the order they are read: the pages in flight first. */
  queue: { url: string; depth: number }[];
  /** frontierKey of every URL ever queued or reached (a resumed crawl queues none of them again). */
  seen: string[];
  /** frontierKey of every page returned (asked-for and final URL). */
  returned: string[];
  /** A link in scope lay beyond maxDepth. */
  deeper: boolean;
  charsLeft: number;
  sitemapsRead: number;
  pagesRead: number;
  /** The next page's place in crawl order. */
  seq: number;
  /** Fetches made that are charged; the first is the request's own. */
  fetches: number;
  charged: number;
  /** A bound met that did not halt the crawl (it answers with it at the end). */
  stopped: CrawlStop | 'deadline' | null;
}

/** The pages of a checkpoint in crawl order. */
export const checkpointPages = (c: Pick<CrawlCheckpoint, 'pages'>): CrawlPage[] =>
  [...c.pages].sort((a, b) => a.seq - b.seq).map((p) => p.page);
