import type { ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { createFetchService, type FetchService } from '../../src/fetch/fetch-service.ts';
import type { ResolvedAddress } from '../../src/fetch/url-guard.ts';
import type { ExtractInput } from '../../src/extract/extract-document.ts';
import { createByteBudget, type ByteBudget } from '../../src/fetch/byte-budget.ts';
import { currentByteAccount } from '../../src/fetch/byte-scope.ts';
import { withFetchCapacity } from '../../src/fetch/fetch-capacity.ts';
import { createHostGate } from '../../src/fetch/host-gate.ts';
import { domainFailure } from '../helpers/domain-failure.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';

/**
 * The limits on the real pipeline (guard, undici, decoding) against a loopback origin that
 * holds responses open until the test lets them go: per-host politeness seen from the
 * origin's side, and the byte ceiling's invariants (never above it, back to 0 after
 * successes, failures and aborts).
 */

const MB = 1024 * 1024;
// Every *.test name is the one fixture address: distinct names are distinct hosts to the gate.
const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
  if (hostname.endsWith('.test')) return [{ address: '127.0.0.2', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** The body length as content (so a test sees what was kept); fails where the page says so. */
const stubExtract = async (input: ExtractInput) => {
  if (input.url.includes('/extract-fails'))
    throw new DomainError('unsupported_media', 'stub extraction refused the page');
  return { title: '', markdown: String(input.body.length), contentType: 'text/plain' };
};

/** Responses the origin holds until released; counts requests in flight per Host header. */
function heldRequests() {
  const held: ServerResponse[] = [];
  const now = new Map<string, number>();
  const peak = new Map<string, number>();
  let total = 0;
  let totalPeak = 0;
  return {
    handler: (req: { headers: { host?: string | undefined } }, res: ServerResponse) => {
      const host = defined((req.headers.host ?? '').split(':')[0], 'a host name');
      now.set(host, (now.get(host) ?? 0) + 1);
      peak.set(host, Math.max(peak.get(host) ?? 0, now.get(host)!));
      total += 1;
      totalPeak = Math.max(totalPeak, total);
      res.once('close', () => {
        now.set(host, now.get(host)! - 1);
        total -= 1;
      });
      held.push(res);
    },
    get waiting() {
      return held.length;
    },
    release(n = held.length) {
      for (const res of held.splice(0, n)) res.writeHead(200, { 'content-type': 'text/plain' }).end('released');
    },
    peak: (host: string) => peak.get(host) ?? 0,
    get totalPeak() {
      return totalPeak;
    },
  };
}

/** Waits for a condition the test's own actions will make true (no timing assumptions). */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error(`never happened: ${what}`);
}

/** A budget that also records the highest use it ever had. */
function watchedBudget(ceiling: number, share: number): ByteBudget & { peak: number } {
  const inner = createByteBudget(ceiling, share);
  const watched = {
    peak: 0,
    open() {
      const account = inner.open();
      return {
        take(n: number) {
          const granted = account.take(n);
          watched.peak = Math.max(watched.peak, inner.used);
          return granted;
        },
        get held() {
          return account.held;
        },
        close: () => account.close(),
      };
    },
    get used() {
      return inner.used;
    },
    get openAccounts() {
      return inner.openAccounts;
    },
    ceiling,
    share,
  };
  return watched;
}

const services: FetchService[] = [];
function pipeline(options: {
  concurrency: number;
  queue: number;
  perHost: number;
  bytes?: ByteBudget;
  timeoutMs?: number;
}) {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const service = withFetchCapacity(
    createFetchService({
      allowCidrs: ['127.0.0.2/32'],
      timeoutMs,
      extract: stubExtract,
      resolver,
      http: { hostGate: createHostGate(options.perHost), byteAccount: currentByteAccount },
    }),
    {
      concurrency: options.concurrency,
      queue: options.queue,
      timeoutMs,
      ...(options.bytes ? { bytes: options.bytes } : {}),
    },
  );
  services.push(service);
  return service;
}

const bigPage = Buffer.alloc(3 * MB, 'p');
const bombBody = Buffer.alloc(21 * MB, 'a');
const gzipBomb = gzipSync(bombBody, { level: 9 });
const brotliBomb = brotliCompressSync(bombBody);
let site: FixtureServer;
let held: ReturnType<typeof heldRequests>;
let trickle: ServerResponse[];

beforeAll(async () => {
  held = heldRequests();
  trickle = [];
  site = await startFixtureServer({
    '/held': (req, res) => held.handler(req, res),
    '/to-b': (_req, res) => {
      res.writeHead(302, { location: `http://b.test:${site.port}/held` });
      res.end();
    },
    '/big': { headers: { 'content-type': 'text/plain' }, body: bigPage },
    '/small': { headers: { 'content-type': 'text/plain' }, body: 'small page' },
    '/gzip-bomb': { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, body: gzipBomb },
    '/br-bomb': { headers: { 'content-type': 'text/plain', 'content-encoding': 'br' }, body: brotliBomb },
    '/extract-fails': { headers: { 'content-type': 'text/plain' }, body: bigPage },
    '/missing': { status: 404, body: 'nope' },
    // One megabyte, then nothing until the client gives up.
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(Buffer.alloc(MB, 't'));
      trickle.push(res);
    },
  });
});
afterAll(async () => {
  held.release();
  await Promise.all(services.map((s) => s.close()));
  await site.close();
});

const url = (host: string, path: string) => `http://${host}:${site.port}${path}`;

describe('per-host politeness on the real pipeline', () => {
  it('one host sees at most SCOUT_FETCH_PER_HOST requests at once; the others wait and then succeed', async () => {
    const f = pipeline({ concurrency: 8, queue: 8, perHost: 2 });
    const all = Array.from({ length: 6 }, () => f.fetch({ url: url('one.test', '/held'), maxChars: 1000 }));
    await until(() => held.waiting === 2, 'two requests at the origin');
    // Give the four waiting fetches every chance to slip through (they must not).
    await new Promise((r) => setTimeout(r, 50));
    expect(held.waiting).toBe(2);
    expect(f.active).toBe(6); // all six hold a fetch slot; four wait for the host
    for (let released = 0; released < 6; released += 2) {
      await until(() => held.waiting === 2, 'the next two');
      held.release(2);
    }
    const results = await Promise.all(all);
    expect(results.every((r) => r.content === '8')).toBe(true); // "released"
    expect(held.peak('one.test')).toBe(2);
  });

  it('the limit is per host name: another name is not held up', async () => {
    const f = pipeline({ concurrency: 8, queue: 8, perHost: 2 });
    const all = ['x.test', 'x.test', 'x.test', 'y.test', 'y.test'].map((h) =>
      f.fetch({ url: url(h, '/held'), maxChars: 1000 }),
    );
    await until(() => held.waiting === 4, 'two per host at the origin');
    held.release();
    await until(() => held.waiting === 1, 'the third x.test request');
    held.release();
    await Promise.all(all);
    expect(held.peak('x.test')).toBe(2);
    expect(held.peak('y.test')).toBe(2);
  });

  it('a redirect hop waits for the slot of the host it goes to', async () => {
    const f = pipeline({ concurrency: 8, queue: 8, perHost: 2 });
    const onB = [0, 1].map(() => f.fetch({ url: url('b.test', '/held'), maxChars: 1000 }));
    await until(() => held.waiting === 2, 'b.test full');
    const redirected = f.fetch({ url: url('a.test', '/to-b'), maxChars: 1000 });
    await until(() => site.requests.some((r) => r.path === '/to-b'), 'the first hop');
    await new Promise((r) => setTimeout(r, 50));
    expect(held.waiting).toBe(2); // the second hop waits for b.test
    held.release(1);
    await until(() => held.waiting === 2, 'the redirected hop at b.test');
    held.release();
    expect((await redirected).finalUrl).toBe(url('b.test', '/held'));
    await Promise.all(onB);
    expect(held.peak('b.test')).toBe(2);
  });

  it('a fetch whose deadline passes while it waits for its host ends as 504 and frees everything', async () => {
    const f = pipeline({ concurrency: 8, queue: 8, perHost: 1, timeoutMs: 300 });
    const first = domainFailure(f.fetch({ url: url('slow.test', '/held'), maxChars: 1000 }));
    await until(() => held.waiting === 1, 'slow.test busy');
    const second = await domainFailure(f.fetch({ url: url('slow.test', '/held'), maxChars: 1000 }));
    expect(second.kind).toBe('timeout');
    expect((await first).kind).toBe('timeout');
    held.release();
    expect(f.active).toBe(0);
  });
});

describe('byte ceiling on the real pipeline', () => {
  it('is never exceeded by big pages and decompression bombs, and a small page still gets its share', async () => {
    const bytes = watchedBudget(8 * MB, 2 * MB); // four fetches at once, 2 MB promised to each
    const f = pipeline({ concurrency: 4, queue: 100, perHost: 100, bytes });
    const paths = [
      '/big',
      '/gzip-bomb',
      '/br-bomb',
      '/big',
      '/gzip-bomb',
      '/br-bomb',
      '/small',
      '/big',
      '/gzip-bomb',
      '/br-bomb',
    ];
    const results = await Promise.all(paths.map((p, i) => f.fetch({ url: url(`h${i}.test`, p), maxChars: 1000 })));
    expect(bytes.peak).toBeGreaterThan(0);
    expect(bytes.peak).toBeLessThanOrEqual(8 * MB);
    expect(bytes.used).toBe(0);
    expect(bytes.openAccounts).toBe(0);
    for (const [i, r] of results.entries()) {
      const kept = Number(r.content);
      expect(kept).toBeGreaterThanOrEqual(paths[i] === '/small' ? 10 : 2 * MB); // at least its share
      expect(r.truncated).toBe(paths[i] !== '/small' && kept < (paths[i] === '/big' ? 3 * MB : 21 * MB));
    }
    // Bombs never get past the ceiling (nor the 20 MB decoded cap).
    expect(Math.max(...results.map((r) => Number(r.content)))).toBeLessThanOrEqual(8 * MB);
  });

  it('goes back to 0 after many fetches that succeed, fail after reading, fail before reading, or are aborted', async () => {
    const bytes = watchedBudget(16 * MB, 4 * MB);
    const f = pipeline({ concurrency: 4, queue: 100, perHost: 100, bytes });
    for (let round = 0; round < 5; round += 1) {
      const caller = new AbortController();
      const outcomes = await Promise.allSettled([
        f.fetch({ url: url(`ok${round}.test`, '/big'), maxChars: 1000 }),
        f.fetch({ url: url(`bomb${round}.test`, '/gzip-bomb'), maxChars: 1000 }),
        f.fetch({ url: url(`fails${round}.test`, '/extract-fails'), maxChars: 1000 }),
        f.fetch({ url: url(`gone${round}.test`, '/missing'), maxChars: 1000 }),
        (async () => {
          const p = f.fetch({ url: url(`cut${round}.test`, '/trickle'), maxChars: 1000, signal: caller.signal });
          // Aborted once part of its body is held.
          await until(() => trickle.length > 0 && bytes.used > 0, 'a trickling body in progress');
          caller.abort();
          return p;
        })(),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected']);
      expect(bytes.used).toBe(0);
      expect(bytes.openAccounts).toBe(0);
      for (const res of trickle.splice(0)) res.destroy();
    }
    expect(bytes.peak).toBeLessThanOrEqual(16 * MB);
  });
});
