import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { startFixtureServer, type FixtureServer, type Routes } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { HOSTILE_PAGES } from './hostile-pages.ts';

/**
 * Pages that froze or killed the process before extraction moved to worker threads
 * (issue "Safe under hostile load"), fetched through a real Scout, each as it is (cut at
 * the wire cap), as a tiny brotli body and as a gzip body, all three at once. The
 * requirement under test: every fetch answers (200, 502 or 504) by its deadline, and
 * meanwhile /healthz and a local search on the same process go on answering. Which of the
 * three statuses a page gets depends on the machine's speed.
 * The bounds are far from the expected values, for the machine may be slow or busy (issue
 * 24: fetches answered 3.4-5.8 s after a 3 s deadline on a loaded 2-core machine, against a
 * bound of 3.3 s): what they catch is the stall this guards against, which lasted seconds to
 * minutes (a page extracted on the event loop holds every probe until it is done, and a
 * fetch until the page is done, deadline or not). A fetch may answer up to 10 s after its
 * deadline, a probe take 2.5 s at most and 1 s at the 95th percentile. How fast the probes
 * are answered during hostile fetches is a figure of bench/fetch.ts, not a test.
 */

const TIMEOUT_MS = 3000;
const SLACK_MS = 10_000;
const PROBE_P95_MS = 1000;
const PROBE_MAX_MS = 2500;

let t: TestScout;
let origin: FixtureServer;

const slug = (name: string): string => name.toLowerCase().replace(/[^a-z]+/g, '-');
const ENCODINGS = ['identity', 'br', 'gzip'] as const;

beforeAll(async () => {
  const routes: Routes = {};
  for (const [name, make] of Object.entries(HOSTILE_PAGES)) {
    const page = make();
    const encoded = {
      identity: page.body,
      br: brotliCompressSync(page.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzip: gzipSync(page.body, { level: 9 }),
    };
    for (const encoding of ENCODINGS) {
      const headers: Record<string, string> = { 'content-type': page.contentType };
      if (encoding !== 'identity') headers['content-encoding'] = encoding;
      routes[`/${slug(name)}/${encoding}`] = { headers, body: encoded[encoding] };
    }
  }
  origin = await startFixtureServer(routes);
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '1000000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_FETCH_TIMEOUT_MS: String(TIMEOUT_MS),
    // As Scout runs by default on a 2-core machine (the test helper asks for one worker at
    // normal priority): two workers, niced below the event loop the probes need.
    SCOUT_FETCH_WORKERS: '2',
    SCOUT_FETCH_WORKER_NICE: '10',
    SCOUT_SEARCH_CACHE_TTL: '0',
    SCOUT_LOG_LEVEL: 'warn',
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await origin?.close();
});

/** Asks /healthz and a local search in turn until stopped; the slowest answer of each. */
interface Probed {
  healthz: number[];
  search: number[];
}

const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? 0;

function probe(baseUrl: string, key: string): { stop(): Promise<Probed> } {
  let running = true;
  const worst: Probed = { healthz: [], search: [] };
  const timed = async (which: 'healthz' | 'search', run: () => Promise<Response>): Promise<void> => {
    const start = performance.now();
    const res = await run();
    await res.text();
    expect(res.status).toBe(200);
    worst[which].push(performance.now() - start);
  };
  const loop = (async () => {
    for (let i = 0; running; i += 1) {
      await timed('healthz', () => fetch(`${baseUrl}/healthz`));
      await timed('search', () =>
        fetch(`${baseUrl}/v1/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: `fetch markdown page ${i}` }),
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return worst;
    },
  };
}

describe('POST /v1/fetch of hostile pages', () => {
  it.each(Object.keys(HOSTILE_PAGES))(
    '%s: answers by the deadline while the process keeps answering',
    { timeout: 60_000 },
    async (name) => {
      const probes = probe(t.baseUrl, t.key);
      const results = await Promise.all(
        ENCODINGS.map(async (encoding) => {
          const start = performance.now();
          const res = await t.request<FetchResponse | ErrorBody>('POST', '/v1/fetch', {
            body: { url: origin.url(`/${slug(name)}/${encoding}`) },
          });
          return { encoding, status: res.status, ms: performance.now() - start, body: res.body };
        }),
      );
      const worst = await probes.stop();
      for (const r of results) {
        expect([200, 502, 504], `${r.encoding}: ${JSON.stringify(r.body).slice(0, 300)}`).toContain(r.status);
        expect(r.ms, r.encoding).toBeLessThan(TIMEOUT_MS + SLACK_MS);
        // Every one of these bodies is cut somewhere: at a byte cap or an extraction bound.
        if (r.status === 200) expect((r.body as FetchResponse).truncated, r.encoding).toBe(true);
      }
      expect(worst.healthz.length).toBeGreaterThan(0);
      for (const which of ['healthz', 'search'] as const) {
        expect(p95(worst[which]), which).toBeLessThan(PROBE_P95_MS);
        expect(Math.max(...worst[which]), which).toBeLessThan(PROBE_MAX_MS);
      }
    },
  );
});
