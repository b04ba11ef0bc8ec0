import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config/load-config.ts';
import type { Config } from '../config/settings.ts';
import { addPages } from '../index/crawl/add-pages.ts';
import { crawlSite } from '../index/crawl/crawl-site.ts';
import { toFrontierUrl } from '../index/crawl/frontier-url.ts';
import { createHostPacer, type HostPacer } from '../index/crawl/host-pacer.ts';
import { createPageFetcher, type PageFetcher } from '../index/crawl/page-fetcher.ts';
import { importJsonl } from '../index/ingest-jsonl.ts';
import { openLocalIndex, type LocalIndex } from '../index/local-index.ts';
import { UsageError, type CliCommand, type CliIO } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

const USAGE = `usage: scout index <command>
  import <file.jsonl>   add or replace documents, one JSON object a line:
                        {"url", "title", "content", "published_date"?, "country"?, "language"?}
  stats [--json]        documents, domains, size and date range of the local index
  add <url…> [--delay-ms N]
                        fetch each page (the /v1/fetch pipeline) and index it under its final URL
  crawl <url> [--max-pages N] [--same-site] [--delay-ms N]
                        breadth-first crawl from <url>, honouring robots.txt; indexes at most
                        N pages (default 50); --same-site stays on <url>'s registrable domain;
                        --delay-ms is the pause between requests to one host (default 1000)
The index lives at $SCOUT_DATA_DIR/index.db (default ./data/index.db).
`;

/** Bad lines printed one by one before the rest are only counted, so a bad file can't flood the terminal. */
const MAX_REPORTED = 100;

const write = (stream: NodeJS.WritableStream, text: string): void => {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
};

/** `scout index import|stats|add|crawl`: exit 0 when done, 1 when it could not be done, 2 on bad usage. */
export const indexCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
    write(sub === undefined ? io.stderr : io.stdout, USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'import' && rest.length === 1 && !rest[0].startsWith('-')) return withIndex(io, (i) => runImport(i, rest[0], io));
  if (sub === 'stats' && (rest.length === 0 || (rest.length === 1 && rest[0] === '--json'))) {
    return withIndex(io, (i) => runStats(i, rest[0] === '--json', io));
  }
  if (sub === 'add' || sub === 'crawl') {
    try {
      return await (sub === 'add' ? runAdd(rest, io) : runCrawl(rest, io));
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      write(io.stderr, `scout index ${sub}: ${e.message}\n${USAGE}`);
      return 2;
    }
  }
  write(io.stderr, `scout index: unknown or incomplete command "${argv.join(' ')}"\n${USAGE}`);
  return 2;
};

/** Opens the index where the server reads it (src/compose.ts indexFile), so a running server sees new documents. */
async function withIndex(io: CliIO, run: (index: LocalIndex, config: Config) => Promise<number>): Promise<number> {
  let index: LocalIndex;
  let config: Config;
  try {
    config = loadConfig(io.env);
    index = openLocalIndex(join(config.dataDir, 'index.db'));
  } catch (e) {
    write(io.stderr, `scout index: ${(e as Error).message}`);
    return 1;
  }
  try {
    return await run(index, config);
  } finally {
    index.close();
  }
}

/** Fetch pipeline and pacer for add/crawl: at most 2 requests in flight, 1 per host. */
async function withFetching(
  io: CliIO,
  delayMs: number,
  run: (index: LocalIndex, fetcher: PageFetcher, pacer: HostPacer) => Promise<number>,
): Promise<number> {
  return withIndex(io, async (index, config) => {
    const fetcher = createPageFetcher({ allowCidrs: config.fetchAllowCidrs, timeoutMs: config.fetchTimeoutMs });
    try {
      return await run(index, fetcher, createHostPacer({ maxInFlight: 2, delayMs }));
    } finally {
      await fetcher.close();
    }
  });
}

function integerFlag(value: string | boolean | undefined, name: string, range: [number, number], fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < range[0] || n > range[1]) {
    throw new UsageError(`--${name} must be an integer from ${range[0]} to ${range[1]}`);
  }
  return n;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const DELAY_RANGE: [number, number] = [0, 600_000];

async function runAdd(argv: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(argv, { 'delay-ms': 'string' });
  if (positional.length === 0) throw new UsageError('name at least one URL');
  const delayMs = integerFlag(flags['delay-ms'], 'delay-ms', DELAY_RANGE, 1000);
  return withFetching(io, delayMs, async (index, fetcher, pacer) => {
    const result = await addPages(positional, {
      fetchPage: (url) => fetcher.fetchOutcome(url),
      pacer,
      store: (doc) => index.upsert([doc]),
      onAdded: (url, title) => write(io.stdout, `added ${url} — ${oneLine(title)}`),
      onSkipped: (url, reason) => write(io.stderr, `skipped ${url}: ${oneLine(reason)}`),
    });
    return result.added > 0 ? 0 : 1;
  });
}

async function runCrawl(argv: string[], io: CliIO): Promise<number> {
  const spec = { 'max-pages': 'string', 'same-site': 'boolean', 'delay-ms': 'string' } as const;
  const { flags, positional } = parseFlags(argv, spec);
  if (positional.length !== 1) throw new UsageError('name exactly one URL to start from');
  const start = toFrontierUrl(positional[0]);
  if ('skip' in start) throw new UsageError(`cannot crawl ${positional[0]}: ${start.skip}`);
  const maxPages = integerFlag(flags['max-pages'], 'max-pages', [1, 100_000], 50);
  const delayMs = integerFlag(flags['delay-ms'], 'delay-ms', DELAY_RANGE, 1000);
  return withFetching(io, delayMs, async (index, fetcher, pacer) => {
    const summary = await crawlSite(
      { start: start.url, maxPages, sameSite: flags['same-site'] === true },
      {
        fetchPage: (url) => fetcher.fetchPage(url),
        fetchText: (url) => fetcher.fetchText(url),
        pacer,
        store: (doc) => index.upsert([doc]),
        onIndexed: (url, title) => write(io.stdout, `indexed ${url} — ${oneLine(title)}`),
        onSkipped: (url, reason) => write(io.stderr, `skipped ${url}: ${oneLine(reason)}`),
      },
    );
    if (summary.indexed > 0) index.optimize();
    write(io.stdout, `crawled ${summary.crawled} pages, indexed ${summary.indexed}, skipped ${summary.skipped}`);
    return summary.indexed > 0 ? 0 : 1;
  });
}

async function runImport(index: LocalIndex, file: string, io: CliIO): Promise<number> {
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    write(io.stderr, `scout index import: cannot read ${file}: ${reason}`);
    return 1;
  }
  let reported = 0;
  const result = await importJsonl(index, file, (lineNo, reason) => {
    if (reported++ < MAX_REPORTED) write(io.stderr, `line ${lineNo}: ${reason}`);
  });
  if (result.skipped > MAX_REPORTED) write(io.stderr, `… and ${result.skipped - MAX_REPORTED} more bad lines`);
  if (result.imported > 0) index.optimize();
  write(
    io.stdout,
    `imported ${result.imported} documents, skipped ${result.skipped} bad lines; the index now holds ${index.count()} documents`,
  );
  return 0;
}

async function runStats(index: LocalIndex, json: boolean, io: CliIO): Promise<number> {
  const s = index.stats();
  if (json) {
    write(io.stdout, JSON.stringify(s));
    return 0;
  }
  const lines = [
    `documents  ${s.documents}`,
    `domains    ${s.domains}`,
    `size       ${(s.bytes / 1_048_576).toFixed(1)} MiB (text ${(s.textBytes / 1_048_576).toFixed(1)} MiB)`,
    `dated      ${s.dated}${s.oldest !== undefined ? ` (${s.oldest} .. ${s.newest})` : ''}`,
    `sources    ${Object.entries(s.sources).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
  ];
  write(io.stdout, lines.join('\n'));
  return 0;
}
