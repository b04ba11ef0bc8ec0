import { loadScoutConfig, type ScoutConfig } from '../scout-settings.ts';
import { createExtractPool } from '../fetch/extract-pool.ts';
import { addPages } from '../index/crawl/add-pages.ts';
import { type CrawlSummary, crawlSite } from '../index/crawl/crawl-site.ts';
import { createCrawlProgress } from './crawl-progress.ts';
import { toFrontierUrl } from '../site/frontier-url.ts';
import { createHostPacer, type HostPacer } from '../site/host-pacer.ts';
import { createPageFetcher, type PageFetcher } from '../index/crawl/page-fetcher.ts';
import { importJsonl } from '../index/ingest-jsonl.ts';
import type { LocalIndexWriter } from '../index/local-index.ts';
import { storedUrl, type IndexDocument } from '../index/index-document.ts';
import type { DocumentSource, IndexListQuery } from '../store/index-rows.ts';
import { openIndexWriter } from '../index/open-index.ts';
import { UsageError, type CliCommand, type CliIO } from './cli-io.ts';
import { importToOpenSearch, indexTarget, runTemplate, withOpenSearchSink, type PageSink } from './index-opensearch.ts';
import { importableFile, MAX_REPORTED, oneLine, write } from './index-output.ts';
import { parseFlags } from './parse-flags.ts';
import { usageFor } from './usage-text.ts';
import { must } from '../domain/must.ts';

/** Opens the index the servers read, for writing: where settings choose (index/open-index.ts). */
type OpenIndexWriter = typeof openIndexWriter;

/**
 * `scout index import|stats|list|remove|add|crawl` over the index `openIndex` opens (embedded
 * file or PostgreSQL); import, add and crawl write to OpenSearch instead with `--to opensearch`.
 */
function createIndexCommand(openIndex: OpenIndexWriter): CliCommand {
  return async (argv, io) => {
    const [sub, ...rest] = argv;
    try {
      switch (sub) {
        case 'import': {
          const { flags, positional } = parseFlags(rest, { to: 'string' });
          const [file] = positional;
          if (positional.length !== 1 || file === undefined) throw new UsageError('name exactly one JSONL file');
          if (indexTarget(flags.to) === 'opensearch') return await importToOpenSearch(file, io);
          return await withIndex(openIndex, io, { mustExist: false }, (i) => runImport(i, file, io));
        }
        case 'stats': {
          const { flags, positional } = parseFlags(rest, { json: 'boolean' });
          if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
          return await withIndex(openIndex, io, { mustExist: true }, (i) => runStats(i, flags.json === true, io));
        }
        case 'list': {
          const q = parseList(rest);
          return await withIndex(openIndex, io, { mustExist: true }, (i) => runList(i, q, io));
        }
        case 'remove': {
          const { positional } = parseFlags(rest, {});
          if (positional.length === 0) throw new UsageError('name at least one URL');
          return await withIndex(openIndex, io, { mustExist: true }, (i) => runRemove(i, positional, io));
        }
        case 'add':
          return await runAdd(openIndex, rest, io);
        case 'crawl':
          return await runCrawl(openIndex, rest, io);
        case 'template':
          return await runTemplate(rest, io);
        default:
          write(io.stderr, `scout index: unknown or incomplete command "${argv.join(' ')}"\n${usageFor('index')}`);
          return 2;
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      write(io.stderr, `scout index ${sub}: ${e.message}\n${usageFor('index', sub)}`);
      return 2;
    }
  };
}

/** `scout index …`: exit 0 when done, 1 when it could not be done, 2 on bad usage. */
export const indexCommand: CliCommand = createIndexCommand(openIndexWriter);

async function withIndex(
  openIndex: OpenIndexWriter,
  io: CliIO,
  o: { mustExist: boolean },
  run: (index: LocalIndexWriter, config: ScoutConfig) => Promise<number>,
): Promise<number> {
  let index: LocalIndexWriter;
  let config: ScoutConfig;
  try {
    config = loadScoutConfig(io.env);
    index = await openIndex(config, o);
  } catch (e) {
    write(io.stderr, `scout index: ${(e as Error).message}`);
    return 1;
  }
  try {
    return await run(index, config);
  } finally {
    await index.close();
  }
}

/** Requests in flight at most during add/crawl. */
const MAX_IN_FLIGHT = 2;

/** Opens where add/crawl store pages, runs `run`, closes it. */
type SinkOpener = (io: CliIO, run: (sink: PageSink, config: ScoutConfig) => Promise<number>) => Promise<number>;

/** The sink of `--to`: the index `openIndex` opens, or OpenSearch. */
function pageSink(openIndex: OpenIndexWriter, to: string | boolean | undefined, sub: string): SinkOpener {
  if (indexTarget(to) === 'opensearch') return (io, run) => withOpenSearchSink(io, sub, run);
  return (io, run) =>
    withIndex(openIndex, io, { mustExist: false }, (index, config) =>
      run(
        {
          store: (doc: IndexDocument) => index.upsert([doc]),
          finish: async () => {
            await index.optimize();
          },
        },
        config,
      ),
    );
}

/** Fetch pipeline and pacer for add/crawl: at most 2 requests in flight, 1 per host; pages extracted in workers. */
async function withFetching(
  openSink: SinkOpener,
  io: CliIO,
  delayMs: number,
  run: (sink: PageSink, fetcher: PageFetcher, pacer: HostPacer) => Promise<number>,
): Promise<number> {
  return openSink(io, async (sink, config) => {
    const pool = createExtractPool({
      workers: Math.min(MAX_IN_FLIGHT, config.fetchWorkers),
      heapMb: config.fetchWorkerHeapMb,
    });
    const fetcher = createPageFetcher({
      allowCidrs: config.fetchAllowCidrs,
      timeoutMs: config.fetchTimeoutMs,
      extract: pool.run,
    });
    try {
      await pool.ready();
      return await run(sink, fetcher, createHostPacer({ maxInFlight: MAX_IN_FLIGHT, delayMs }));
    } finally {
      await fetcher.close();
      await pool.close();
    }
  });
}

function integerFlag(
  value: string | boolean | undefined,
  name: string,
  range: [number, number],
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < range[0] || n > range[1]) {
    throw new UsageError(`--${name} must be an integer from ${range[0]} to ${range[1]}`);
  }
  return n;
}

const DELAY_RANGE: [number, number] = [0, 600_000];

async function runAdd(openIndex: OpenIndexWriter, argv: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(argv, { 'delay-ms': 'string', to: 'string' });
  if (positional.length === 0) throw new UsageError('name at least one URL');
  const delayMs = integerFlag(flags['delay-ms'], 'delay-ms', DELAY_RANGE, 1000);
  return withFetching(pageSink(openIndex, flags.to, 'add'), io, delayMs, async (sink, fetcher, pacer) => {
    const result = await addPages(positional, {
      fetchPage: (url) => fetcher.fetchOutcome(url),
      pacer,
      store: (doc) => sink.store(doc),
      onAdded: (url, title) => write(io.stdout, `added ${url} — ${oneLine(title)}`),
      onSkipped: (url, reason) => write(io.stderr, `skipped ${url}: ${oneLine(reason)}`),
    });
    return result.added > 0 ? 0 : 1;
  });
}

async function runCrawl(openIndex: OpenIndexWriter, argv: string[], io: CliIO): Promise<number> {
  const spec = { 'max-pages': 'string', 'same-site': 'boolean', 'delay-ms': 'string', to: 'string' } as const;
  const { flags, positional } = parseFlags(argv, spec);
  const [url] = positional;
  if (positional.length !== 1 || url === undefined) throw new UsageError('name exactly one URL to start from');
  const start = toFrontierUrl(url);
  if ('skip' in start) throw new UsageError(`cannot crawl ${url}: ${start.skip}`);
  const maxPages = integerFlag(flags['max-pages'], 'max-pages', [1, 100_000], 50);
  const delayMs = integerFlag(flags['delay-ms'], 'delay-ms', DELAY_RANGE, 1000);
  return withFetching(pageSink(openIndex, flags.to, 'crawl'), io, delayMs, async (sink, fetcher, pacer) => {
    const progress = createCrawlProgress(io.stderr);
    let summary: CrawlSummary;
    try {
      summary = await crawlSite(
        { start: start.url, maxPages, sameSite: flags['same-site'] === true },
        {
          fetchPage: (url) => fetcher.fetchPage(url),
          fetchText: (url) => fetcher.fetchText(url),
          pacer,
          store: (doc) => sink.store(doc),
          onIndexed: (url, title) => progress.line(io.stdout, `indexed ${url} — ${oneLine(title)}`),
          onSkipped: (url, reason) => progress.line(io.stderr, `skipped ${url}: ${oneLine(reason)}`),
          onProgress: (p) => progress.update(p),
        },
      );
    } finally {
      progress.done();
    }
    if (summary.indexed > 0) await sink.finish();
    write(io.stdout, `crawled ${summary.crawled} pages, indexed ${summary.indexed}, skipped ${summary.skipped}`);
    return summary.indexed > 0 ? 0 : 1;
  });
}

async function runImport(index: LocalIndexWriter, file: string, io: CliIO): Promise<number> {
  if (!(await importableFile(file, io))) return 1;
  let reported = 0;
  const result = await importJsonl(index, file, (lineNo, reason) => {
    if (reported++ < MAX_REPORTED) write(io.stderr, `line ${lineNo}: ${reason}`);
  });
  if (result.skipped > MAX_REPORTED) write(io.stderr, `… and ${result.skipped - MAX_REPORTED} more bad lines`);
  if (result.imported > 0) await index.optimize();
  write(
    io.stdout,
    `imported ${result.imported} documents, skipped ${result.skipped} bad lines; the index now holds ${await index.count()} documents`,
  );
  return 0;
}

const SOURCES: readonly DocumentSource[] = ['import', 'starter'];

function parseList(argv: string[]): IndexListQuery & { json: boolean } {
  const { flags, positional } = parseFlags(argv, {
    domain: 'string',
    source: 'string',
    after: 'string',
    limit: 'string',
    json: 'boolean',
  });
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
  const q: IndexListQuery & { json: boolean } = {
    limit: integerFlag(flags.limit, 'limit', [1, 100_000], 100),
    json: flags.json === true,
  };
  if (typeof flags.domain === 'string') {
    const domain = flags.domain.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
    if (!/^[a-z0-9.-]+$/.test(domain) || domain.includes('..'))
      throw new UsageError(`--domain must be a host name such as example.com, got "${flags.domain}"`);
    q.domain = domain;
  }
  if (typeof flags.source === 'string') {
    if (!(SOURCES as readonly string[]).includes(flags.source))
      throw new UsageError(`--source must be one of ${SOURCES.join(', ')}, got "${flags.source}"`);
    q.source = flags.source as DocumentSource;
  }
  if (typeof flags.after === 'string') q.after = flags.after;
  return q;
}

/** A page of documents; the line after it says how to get the next page. */
async function runList(index: LocalIndexWriter, q: IndexListQuery & { json: boolean }, io: CliIO): Promise<number> {
  const { json, ...query } = q;
  // One more than asked: whether there is a next page, without counting the whole index.
  const page = await index.list({ ...query, limit: query.limit + 1 });
  const shown = page.slice(0, query.limit);
  // limit ≥ 1 (its flag's range): a page longer than it shows its last document.
  const next = page.length > query.limit ? must(shown.at(-1), 'the last document shown').url : null;
  if (json) {
    write(io.stdout, JSON.stringify({ documents: shown, next_after: next }));
    return 0;
  }
  if (shown.length === 0) write(io.stdout, 'no documents');
  for (const d of shown) write(io.stdout, [d.url, oneLine(d.title), d.source, d.published_date ?? '-'].join('\t'));
  if (next !== null) write(io.stderr, `more: --after ${next}`);
  return 0;
}

/** Removes documents by url (as imported: the stored form is found from any spelling WHATWG parsing agrees on). */
async function runRemove(index: LocalIndexWriter, given: string[], io: CliIO): Promise<number> {
  const urls: string[] = [];
  for (const u of given) {
    const stored = storedUrl(u);
    if (typeof stored !== 'string') throw new UsageError(`cannot remove ${u}: ${stored.reason}`);
    urls.push(stored);
  }
  const unique = [...new Set(urls)];
  const missing: string[] = [];
  let removed = 0;
  // One at a time: the answer must say which urls were not in the index.
  for (const url of unique) {
    if ((await index.remove([url])) > 0) removed++;
    else missing.push(url);
  }
  for (const url of missing) write(io.stderr, `not in the index: ${url}`);
  write(
    io.stdout,
    `removed ${removed} of ${unique.length} documents; the index now holds ${await index.count()} documents`,
  );
  return removed > 0 ? 0 : 1;
}

async function runStats(index: LocalIndexWriter, json: boolean, io: CliIO): Promise<number> {
  const s = await index.stats();
  if (json) {
    write(io.stdout, JSON.stringify(s));
    return 0;
  }
  const lines = [
    `documents  ${s.documents}`,
    `domains    ${s.domains}`,
    `size       ${(s.bytes / 1_048_576).toFixed(1)} MiB (text ${(s.textBytes / 1_048_576).toFixed(1)} MiB)`,
    `dated      ${s.dated}${s.oldest !== undefined ? ` (${s.oldest} .. ${s.newest})` : ''}`,
    `sources    ${
      Object.entries(s.sources)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
  ];
  write(io.stdout, lines.join('\n'));
  return 0;
}
