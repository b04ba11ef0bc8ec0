/**
 * Pieces shared by the HTTP benchmarks (bench/search.ts, bench/sponsored.ts): a real Scout on
 * a synthetic local index, the query sequence, one autocannon run, medians.
 */
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createScout, type Scout, type ScoutOptions } from '../src/compose.ts';
import { loadScoutConfig, type ScoutConfig } from '../src/scout-settings.ts';
import { corpusLines, rng } from './make-corpus.ts';
import { defined } from '../test/helpers/defined.ts';

export interface Run {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(name: string, opts: autocannon.Options, seconds: number, connections: number): Promise<Run> {
  const r = await autocannon({ ...opts, duration: seconds, connections });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** Prints runs as a table: `label` (route, mode, …) in a column of `width`, then req/s, p50, p99, errors. */
export function printRuns(label: string, width: number, runs: readonly Run[]): void {
  console.log(
    label.padEnd(width),
    'req/s'.padStart(9),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'errors'.padStart(7),
  );
  for (const r of runs) {
    console.log(
      r.name.padEnd(width),
      r.rps.toFixed(0).padStart(9),
      String(r.p50).padStart(8),
      String(r.p99).padStart(8),
      String(r.errors + r.non2xx).padStart(7),
    );
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const at = (i: number): number => defined(s[i], `sample ${i}`);
  return s.length % 2 ? at((s.length - 1) / 2) : (at(s.length / 2 - 1) + at(s.length / 2)) / 2;
}

/** Medians of a route's rounds, errors summed. */
export function summary(runs: readonly Run[]): Run {
  return {
    name: defined(runs[0], 'a first round').name,
    rps: median(runs.map((x) => x.rps)),
    p50: median(runs.map((x) => x.p50)),
    p99: median(runs.map((x) => x.p99)),
    errors: runs.reduce((n, x) => n + x.errors, 0),
    non2xx: runs.reduce((n, x) => n + x.non2xx, 0),
  };
}

/** Lower-case title words of a small corpus: the vocabulary of the queries (and of campaign keywords). */
export function titleWords(): string[] {
  return [...corpusLines({ docs: 200, seed: 7 })].flatMap((l) =>
    (JSON.parse(l).title as string).toLowerCase().split(' '),
  );
}

/** Queries of 2-4 corpus words, so most match something. */
export function queries(n: number, words = titleWords()): string[] {
  const rand = rng(99);
  return Array.from({ length: n }, () => {
    const k = 2 + Math.floor(rand() * 3);
    return Array.from({ length: k }, () => words[Math.floor(rand() * words.length)]).join(' ');
  });
}

/**
 * One request per query of `qs`, one global sequence: autocannon walks a `requests` array
 * separately on each connection, so 10 connections would send every query 10 times in a row
 * and any cache would answer 9 of them; setupRequest hands each request the next query instead.
 */
export function requestSequence(
  qs: readonly string[],
  make: (query: string) => Pick<autocannon.Request, 'path' | 'body'>,
  base: autocannon.Request,
): autocannon.Request[] {
  let next = 0;
  return [{ ...base, setupRequest: (req: autocannon.Request) => ({ ...req, ...make(qs[next++ % qs.length] ?? '') }) }];
}

/** JSON POSTs of `{query: q, max_results: 10}` for each of `qs` to `path` (requestSequence). */
export const querySequence = (path: string, qs: readonly string[], key?: string): autocannon.Request[] =>
  requestSequence(qs, (query) => ({ body: JSON.stringify({ query, max_results: 10 }) }), {
    method: 'POST',
    path,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
  });

/**
 * A real Scout (every stage, auth, rate limit at 1M/min, budget; the local index as its only
 * provider unless `env` says otherwise) on a fresh data folder with
 * `docs` synthetic documents (or the documents given), its ranker built unless the settings
 * turn it off, listening on loopback; logs are produced and dropped. Returns it with an API
 * key and its base URL.
 */
export async function benchScout(
  docs: number | readonly object[],
  env: Record<string, string> = {},
  options: Pick<ScoutOptions, 'extract'> = {},
): Promise<{ scout: Scout; key: string; url: string; root: string; config: ScoutConfig }> {
  const root = mkdtempSync(join(tmpdir(), 'scout-bench-'));
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  const config = loadScoutConfig({
    SCOUT_DATA_DIR: join(root, 'data'),
    SCOUT_STARTER_CORPUS: 'false',
    SCOUT_RATE_LIMIT_RPM: '1000000',
    SCOUT_MONTHLY_SEARCH_BUDGET: '1000000000',
    SCOUT_SEARCH_CACHE_TTL: '0',
    // The local index alone unless a bench names providers: the default list is the keyless
    // web engines plus the index, which a bench would ask over the network (this machine has
    // none: each failed, was suspended, and fusion ran over the one list left).
    SCOUT_SEARCH_PROVIDERS: 'local',
    ...env,
  });
  const scout = await createScout(config, { docsDir: join(root, 'none'), logStream: sink, ...options });
  const rows = typeof docs === 'number' ? [...corpusLines({ docs, seed: 42 })].map((l) => JSON.parse(l)) : docs;
  for (let i = 0; i < rows.length; i += 1000) await scout.index.upsert(rows.slice(i, i + 1000));
  // A server builds its in-memory ranker in the background after start; here, before measuring.
  if (config.indexMemoryMb > 0 && !scout.index.syncRanker()) throw new Error('the in-memory ranker did not build');
  const key = (await scout.keys.create('bench')).key;
  await scout.app.listen({ port: 0, host: '127.0.0.1' });
  return { scout, key, url: `http://127.0.0.1:${(scout.app.server.address() as { port: number }).port}`, root, config };
}
