import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../src/domain/errors.ts';
import type { ProviderResult } from '../../src/search/search-types.ts';
import { CircuitBreaker } from '../../src/providers/circuit-breaker.ts';
import { ProviderError, type SearchProvider } from '../../src/providers/provider.ts';
import { createSearchBackend } from '../../src/providers/registry.ts';
import { query } from './mock-upstream.ts';

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures and lets one trial through after the cool-down', () => {
    let t = 0;
    const b = new CircuitBreaker({ threshold: 3, cooldownMs: 10_000, now: () => t });
    expect(b.failure()).toBe(false);
    b.success();
    expect(b.failure()).toBe(false);
    expect(b.failure()).toBe(false);
    expect(b.state()).toBe('closed');
    expect(b.failure()).toBe(true);
    expect(b.state()).toBe('open');
    expect(b.allow()).toBe(false);
    t = 9_999;
    expect(b.retryInMs()).toBe(1);
    expect(b.allow()).toBe(false);
    t = 10_000;
    expect(b.state()).toBe('half_open');
    expect(b.allow()).toBe(true);
    expect(b.allow()).toBe(false); // one trial at a time
    expect(b.success()).toBe(true);
    expect(b.state()).toBe('closed');
    expect(b.allow()).toBe(true);
  });

  it('a failed trial opens it for another cool-down; release() frees the trial slot', () => {
    let t = 0;
    const b = new CircuitBreaker({ threshold: 1, cooldownMs: 1000, now: () => t });
    b.failure();
    t = 1000;
    expect(b.allow()).toBe(true);
    expect(b.failure()).toBe(true);
    expect(b.state()).toBe('open');
    t = 1999;
    expect(b.allow()).toBe(false);
    t = 2000;
    expect(b.allow()).toBe(true);
    b.release();
    expect(b.allow()).toBe(true);
  });
});

/** A provider whose behaviour the test switches; it counts its calls. */
function switchable(name: string) {
  const p = {
    calls: 0,
    fail: true as boolean | ProviderError,
    provider: {
      name,
      honours: new Set(),
      search: async (): Promise<ProviderResult[]> => {
        p.calls += 1;
        if (p.fail instanceof ProviderError) throw p.fail;
        if (p.fail) throw new ProviderError(name, 'http', 'HTTP 503', { status: 503 });
        return [{ title: name, url: `https://${name}.example/`, content: '' }];
      },
    } as SearchProvider,
  };
  return p;
}

describe('breaker in the backend', () => {
  it('keeps a repeatedly failing provider out for the cool-down, then tries it again', async () => {
    let t = 0;
    const flaky = switchable('flaky');
    const steady = switchable('steady');
    steady.fail = false;
    const backend = createSearchBackend([flaky.provider, steady.provider], {
      cacheTtlMs: 0,
      breaker: { threshold: 2, cooldownMs: 30_000 },
      now: () => t,
    });
    for (let i = 0; i < 2; i++) expect((await backend.search(query())).providers).toEqual(['steady']);
    expect(flaky.calls).toBe(2);
    expect(backend.status()[0]).toMatchObject({ name: 'flaky', state: 'open', consecutiveFailures: 2 });
    await backend.search(query());
    expect(flaky.calls).toBe(2); // skipped while open
    t = 30_000;
    flaky.fail = false;
    expect((await backend.search(query())).providers).toEqual(['flaky']);
    expect(flaky.calls).toBe(3);
    expect(backend.status()[0]).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('names a suspended provider in the 502 message', async () => {
    let t = 0;
    const only = switchable('only');
    const backend = createSearchBackend([only.provider], {
      cacheTtlMs: 0,
      breaker: { threshold: 1, cooldownMs: 20_000 },
      now: () => t,
    });
    await expect(backend.search(query())).rejects.toThrow(
      'every search provider failed, try again later: only: HTTP 503',
    );
    t = 5_000;
    const e = (await backend.search(query()).catch((x: unknown) => x)) as DomainError;
    expect(e.message).toBe(
      'every search provider failed, try again later: only: suspended for 15 s after repeated failures',
    );
    expect(only.calls).toBe(1);
  });

  it('a request the upstream refuses as invalid (HTTP 400) fails over without suspending the provider', async () => {
    const picky = switchable('picky');
    picky.fail = new ProviderError('picky', 'http', 'HTTP 400', { status: 400 });
    const other = switchable('other');
    other.fail = false;
    const backend = createSearchBackend([picky.provider, other.provider], {
      cacheTtlMs: 0,
      breaker: { threshold: 1, cooldownMs: 60_000 },
    });
    await backend.search(query());
    await backend.search(query());
    expect(picky.calls).toBe(2);
    expect(backend.status()[0]?.state).toBe('closed');
  });

  it('a provider that throws something unexpected is a failure, reported without internals', async () => {
    const broken: SearchProvider = {
      name: 'broken',
      honours: new Set(),
      search: async () => {
        throw new TypeError('cannot read properties of undefined (/srv/app/secret/path.ts)');
      },
    };
    const e = (await createSearchBackend([broken], { cacheTtlMs: 0 })
      .search(query())
      .catch((x: unknown) => x)) as DomainError;
    expect(e.message).toBe('every search provider failed, try again later: broken: failed (internal error)');
  });
});
