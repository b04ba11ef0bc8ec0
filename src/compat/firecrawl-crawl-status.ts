import type { CrawlJob } from '../schemas/crawl-job.ts';
import { CRAWL_LIMITS, type CrawlPage, type CrawlStop } from '../schemas/crawl.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import type {
  FirecrawlCrawlCancelResponse,
  FirecrawlCrawlState,
  FirecrawlCrawlStatusResponse,
  FirecrawlDocument,
} from '../schemas/firecrawl.ts';

/** Scout's job states → Firecrawl's: its SDK polls until completed, failed or cancelled. */
const STATE: Record<CrawlJob['status'], FirecrawlCrawlState> = {
  queued: 'scraping',
  running: 'scraping',
  // A crawl stopped by a bound has ended too: it is completed, and agent_hints says which bound.
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

const L = CRAWL_LIMITS;

/** Why an ended crawl left pages unread, and what the caller can do: in agent_hints. */
const STOP_HINTS: Record<CrawlStop, string> = {
  limit: `the crawl returned limit pages and more were within reach: ask for a higher limit (Scout returns at most ${L.limit.max} per crawl), or narrow it with includePaths or a start URL deeper in the site`,
  depth: `every page within maxDiscoveryDepth was read and links went deeper: raise maxDiscoveryDepth (Scout follows at most ${L.maxDepth.max} links), or start deeper in the site`,
  deadline:
    'the crawl reached its time limit before reading every page within reach: more pages exist; narrow it with includePaths or a start URL deeper in the site',
  rate_limited: "the key's rate limit ran out during the crawl: more pages exist; crawl again later",
  fetch_budget: `the crawl fetched limit + ${L.extraFetches} pages (some failed, redirected away or were not kept) and stopped: more pages may exist`,
  char_budget: `the crawl's ${L.totalChars} characters of markdown were used up: more pages exist; a smaller limit leaves each page more characters`,
};

/** A page the crawl kept → Firecrawl's document: its markdown and metadata, and a warning when it was cut. */
export function firecrawlCrawlDocument(page: CrawlPage): FirecrawlDocument {
  const metadata: FirecrawlDocument['metadata'] = {
    title: page.title,
    sourceURL: page.url,
    url: page.final_url,
    // The crawl keeps pages answered 2xx; it does not keep their exact status.
    statusCode: 200,
    // Every page is read from its site: nothing comes from a cache.
    cacheState: 'miss',
  };
  if (page.meta.content_type !== null) metadata.contentType = page.meta.content_type;
  const doc: FirecrawlDocument = { markdown: page.content, metadata };
  if (page.next_index !== null)
    doc.warning = `the page's markdown was cut at ${page.chars} of its ${page.total_chars} characters (a crawl shares ${L.totalChars} characters among its pages): POST /v2/scrape gives the page whole`;
  else if (page.truncated)
    doc.warning = `the page was cut at Scout's size limits (${FETCH_LIMITS.maxChars.max} characters of markdown)`;
  return doc;
}

/** A crawl job → Firecrawl's crawl status: every page so far in data (next is always null). */
export function firecrawlCrawlStatusBody(job: CrawlJob): FirecrawlCrawlStatusResponse {
  const status = STATE[job.status];
  const body: FirecrawlCrawlStatusResponse = {
    success: true,
    status,
    total: Math.max(job.pages_read, job.pages.length),
    completed: job.pages.length,
    creditsUsed: job.charged,
    expiresAt: job.expires_at,
    next: null,
    data: job.pages.map(firecrawlCrawlDocument),
  };
  if (status === 'scraping') return body;
  const hints: string[] = [];
  if (job.stopped !== null) hints.push(STOP_HINTS[job.stopped]);
  const skipped = job.skipped.length;
  if (skipped > 0) {
    // Firecrawl's answer has no field for them; Scout's own view of the same job lists them.
    const [count, which] = skipped >= L.skipped ? [`at least ${skipped}`, `the first ${skipped}`] : [skipped, 'them'];
    hints.push(
      `${count} ${skipped === 1 ? 'URL was' : 'URLs were'} not read or not returned (robots.txt, failed fetches, redirects off the site): GET /v1/crawl/${job.id}, with the same key, lists ${which} with why`,
    );
  }
  if (hints.length > 0) body.agent_hints = hints;
  if (job.error !== null) body.error = job.error.message;
  return body;
}

/** The job after DELETE → what the SDK's cancelCrawl reads: status "cancelled", or how it had ended. */
export function firecrawlCancelBody(job: CrawlJob): FirecrawlCrawlCancelResponse {
  return {
    success: true,
    status: job.status === 'completed' ? 'completed' : job.status === 'failed' ? 'failed' : 'cancelled',
  };
}
