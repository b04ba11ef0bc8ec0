import { availableParallelism } from 'node:os';
import { int, type Parser } from './parsers.ts';
import { s } from './setting.ts';

/** Unset: one extraction worker per CPU Node may use (containers' CPU limits included). */
const workerCount: Parser<number> = (raw) =>
  raw.trim() === '' ? Math.max(1, availableParallelism()) : int(1, 256)(raw);

/**
 * Settings of the page-extraction worker pool (src/fetch/extract-pool.ts), spread into the
 * main table by settings.ts. docs/operations.md ("Fetch workers") explains the sizing.
 */
export const fetchSettings = {
  fetchWorkers: s(
    'SCOUT_FETCH_WORKERS',
    workerCount,
    '',
    'Worker threads that turn fetched pages (HTML, PDF, feeds) into markdown, for /v1/fetch and advanced search; more pages wait for a free one. Unset: the number of CPUs (os.availableParallelism()).',
  ),
  fetchWorkerHeapMb: s(
    'SCOUT_FETCH_WORKER_HEAP_MB',
    int(64, 16_384),
    '512',
    'JavaScript heap limit of each fetch worker, in MB; a page that needs more is answered 502 and its worker replaced. Plan on up to workers × (this + ~100 MB) of RAM for extraction.',
  ),
  fetchWorkerNice: s(
    'SCOUT_FETCH_WORKER_NICE',
    int(0, 19),
    '10',
    "CPU niceness of the fetch workers (Linux): extraction runs below the API's own thread, so hostile pages cannot slow searches and /healthz; idle CPU is still theirs. 0 keeps them at the same priority.",
  ),
} as const;
