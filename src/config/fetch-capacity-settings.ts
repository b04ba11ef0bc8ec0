import { int } from './parsers.ts';
import { s } from './setting.ts';

/**
 * How much fetching one process takes on at once (POST /v1/fetch and the pages of advanced
 * searches); spread into the main table by settings.ts. Defaults suit a 2-core machine: see
 * docs/operations.md ("Fetch capacity") for the reasoning and the measured memory.
 */
export const fetchCapacitySettings = {
  fetchConcurrency: s(
    'SCOUT_FETCH_CONCURRENCY',
    int(1, 1024),
    '8',
    'Fetches running at once per process (POST /v1/fetch and advanced-search pages). 8 suits 2 cores: most of a fetch is waiting on the origin, but each may end in a CPU-heavy extraction.',
  ),
  fetchQueue: s(
    'SCOUT_FETCH_QUEUE',
    int(0, 100_000),
    '1024',
    'Most fetches waiting for a slot at once: a ceiling on the memory of the line (a waiting fetch holds its request and connection, no body), not the usual bound, which is time: time in line counts against SCOUT_FETCH_TIMEOUT_MS, and a fetch still waiting at half of it is 503 with Retry-After. Slots and places are shared fairly between API keys. In a full line a newcomer takes the place of the latest waiter of the key with the most waiting (that fetch is 503), or is 503 at once when its own key waits as many as any.',
  ),
  fetchPerHost: s(
    'SCOUT_FETCH_PER_HOST',
    int(1, 64),
    '2',
    'Requests in flight to one host name at once, across all fetches (each redirect hop counts for its host); the others wait within their deadline.',
  ),
  mapDelayMs: s(
    'SCOUT_MAP_DELAY_MS',
    int(0, 10_000),
    '250',
    "Pause between two requests of one site map or crawl (POST /v1/map, POST /v1/crawl) to the same host, in ms, counted from the end of the previous one; a site's robots.txt Crawl-delay can lengthen it (up to 10 s), never shorten it.",
  ),
  crawlJobWorkers: s(
    'SCOUT_CRAWL_JOB_WORKERS',
    int(0, 64),
    '2',
    'Asynchronous crawl jobs (POST /v1/crawl with async: true, Firecrawl-shaped POST /v2/crawl) this process runs at once; more wait queued in the store for any replica with a free worker. 0: this process runs none (it still accepts, answers and cancels jobs; other replicas run them).',
  ),
  crawlJobLeaseS: s(
    'SCOUT_CRAWL_JOB_LEASE_S',
    int(3, 600),
    '30',
    "How long a running crawl job stays its replica's without word from it, in seconds: the replica renews it every third of this; when a replica dies, another takes its jobs over from their last page after at most this long.",
  ),
  fetchBufferMb: s(
    'SCOUT_FETCH_BUFFER_MB',
    int(1, 4096),
    '64',
    'Ceiling on page bytes buffered by all running fetches together, in MiB; each running fetch is promised its share (an equal split, at most 2 MiB); a body that reaches the ceiling is cut there (truncated: true).',
  ),
} as const;
