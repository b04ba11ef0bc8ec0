import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { createMarginaliaProvider } from '../../src/providers/marginalia.ts';
import { ProviderError, type SearchProvider } from '../../src/providers/provider.ts';
import { createSearchBackend } from '../../src/providers/registry.ts';
import type { ProviderResult } from '../../src/search/search-types.ts';
import { defined } from '../helpers/defined.ts';
import { fixture, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';

/**
 * What the registry does for engines used without a key: pacing (a burst of parallel
 * searches waits its turn instead of tripping the engine's bot check), a block suspends the
 * engine at once while the others answer, and each provider's last health is kept for
 * /admin and /metrics. Pacing is checked against a loopback upstream that records when each
 * request arrived; the spacing asserted is a lower bound, which a slower machine only widens.
 */

let mock: MockUpstream;
const arrivals: number[] = [];
beforeAll(async () => {
  mock = await startMockUpstream(() => {
    arrivals.push(performance.now());
    return { body: fixture('marginalia', 'search.json') };
  });
});
afterAll(() => mock.close());

/** When each call of a paced provider started (the moment the registry let it go upstream). */
const starts: number[] = [];
function paced(perSecond: number, inFlight = 1): SearchProvider {
  const inner = createMarginaliaProvider({ url: `${mock.url}/search`, apiKey: 'public' });
  return {
    ...inner,
    pacing: { perSecond, inFlight },
    search(q, signal) {
      starts.push(performance.now());
      return inner.search(q, signal);
    },
  };
}

const result = (url: string): ProviderResult => ({ title: url, url, content: 'text' });

/** A provider answering from a script: each call takes the next step (a list, or an error to throw). */
function scripted(name: string, steps: (ProviderResult[] | ProviderError)[]): SearchProvider & { calls: number } {
  const p = {
    name,
    honours: new Set<never>(),
    calls: 0,
    async search() {
      const step = steps[Math.min(p.calls, steps.length - 1)];
      p.calls += 1;
      if (step instanceof ProviderError) throw step;
      return defined(step, 'a scripted step');
    },
  };
  return p;
}

const blocked = (name: string) => new ProviderError(name, 'blocked', 'blocked (the page says "captcha")');

describe('pacing', () => {
  it('parallel searches to a paced engine start 1/rate apart, and every one is answered', async () => {
    arrivals.length = 0;
    starts.length = 0;
    const backend = createSearchBackend([paced(10)], {
      cacheTtlMs: 0,
      providerTimeoutMs: 20_000,
      deadlineMs: 60_000,
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => backend.search(query({ query: `burst ${i}` }))),
    );
    for (const a of answers) expect(a.results.length).toBeGreaterThan(0);
    expect(arrivals).toHaveLength(6);
    // Calls start 100 ms apart at least (less 2 ms for timer rounding). Arrival times at the
    // upstream are not compared: the first request also opens the connection, so two
    // requests started 100 ms apart may arrive closer together.
    expect(starts).toHaveLength(6);
    for (let i = 1; i < starts.length; i++)
      expect(defined(starts[i], 'a start') - defined(starts[i - 1], 'a start')).toBeGreaterThanOrEqual(98);
    expect(backend.status()[0]).toMatchObject({ name: 'marginalia', consecutiveFailures: 0, waiting: 0 });
  });

  it('a search whose turn would come after its time limit skips the engine at once, without holding it against the engine', async () => {
    arrivals.length = 0;
    const other = scripted('other', [[result('https://other.example/a')]]);
    // One search a second, 2.5 s each: the first starts now, the second in 1 s, the third
    // would wait 2 s + and is refused before waiting; failover answers it from `other`.
    const backend = createSearchBackend([paced(1), other], { cacheTtlMs: 0, providerTimeoutMs: 1500 });
    const [a, b, c] = await Promise.all([0, 1, 2].map((i) => backend.search(query({ query: `turn ${i}` }))));
    expect(a?.providers).toEqual(['marginalia']);
    expect(b?.providers).toEqual(['marginalia']);
    expect(c?.providers).toEqual(['other']);
    expect(arrivals).toHaveLength(2);
    expect(backend.status()[0]).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });
});

describe('blocks', () => {
  it('a block suspends the engine at once for the block cool-down; the others answer meanwhile', async () => {
    let now = 1_000_000;
    const engine = scripted('engine', [blocked('engine'), [result('https://engine.example/back')]]);
    const other = scripted('other', [[result('https://other.example/a')]]);
    const backend = createSearchBackend([engine, other], {
      mode: 'fusion',
      cacheTtlMs: 0,
      blockCooldownMs: 600_000,
      breaker: { threshold: 3, cooldownMs: 30_000 },
      now: () => now,
    });
    const first = await backend.search(query({ query: 'one' }));
    expect(first.providers).toEqual(['other']);
    // One block is enough (the threshold of 3 is for failures that may pass).
    expect(backend.status()[0]).toMatchObject({ name: 'engine', state: 'open', last: { health: 'blocked' } });
    // Past the ordinary cool-down but within the block's: still skipped.
    now += 60_000;
    await backend.search(query({ query: 'two' }));
    expect(engine.calls).toBe(1);
    // Past the block's cool-down: one trial, which answers and closes the breaker.
    now += 600_000;
    const third = await backend.search(query({ query: 'three' }));
    expect(engine.calls).toBe(2);
    expect(third.providers).toEqual(['engine', 'other']);
    expect(backend.status()[0]).toMatchObject({ state: 'closed', last: { health: 'ok' } });
  });

  it('every engine blocked → 502 naming each engine and that it is blocked', async () => {
    const backend = createSearchBackend([scripted('duck', [blocked('duck')]), scripted('mole', [blocked('mole')])], {
      mode: 'fusion',
      cacheTtlMs: 0,
    });
    const e = await backend.search(query()).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).kind).toBe('upstream');
    expect((e as DomainError).message).toMatch(/duck: blocked \(the page says "captcha"\)/);
    expect((e as DomainError).message).toMatch(/mole: blocked/);
    // Suspended now: the next search names the suspension.
    const again = await backend.search(query({ query: 'again' })).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect((again as DomainError).message).toMatch(/duck: suspended for 600 s/);
  });
});

describe('provider health', () => {
  it('keeps how each provider last ended: ok, parse failed, unreachable, error', async () => {
    let now = 5_000;
    const backend = createSearchBackend(
      [
        scripted('fine', [[result('https://fine.example/')]]),
        scripted('changed', [new ProviderError('changed', 'malformed', 'parse failed (no result)')]),
        scripted('gone', [new ProviderError('gone', 'network', 'network error (ECONNREFUSED)')]),
        scripted('keyed', [new ProviderError('keyed', 'auth', 'HTTP 401 (API key refused)', { status: 401 })]),
      ],
      { mode: 'fusion', cacheTtlMs: 0, now: () => now },
    );
    expect(backend.status().map((s) => s.last)).toEqual([undefined, undefined, undefined, undefined]);
    now = 7_000;
    await backend.search(query());
    const byName = Object.fromEntries(backend.status().map((s) => [s.name, s.last]));
    expect(byName.fine).toMatchObject({ health: 'ok', at: 7_000 });
    expect(byName.fine?.reason).toBeUndefined();
    expect(byName.changed).toMatchObject({ health: 'parse_failed', reason: 'parse failed (no result)' });
    expect(byName.gone).toMatchObject({ health: 'unreachable', reason: 'network error (ECONNREFUSED)' });
    expect(byName.keyed).toMatchObject({ health: 'error', reason: 'HTTP 401 (API key refused)' });
  });
});
