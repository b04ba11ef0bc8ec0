import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestContext } from '../../src/search/search-service.ts';
import type { SearchQuery } from '../../src/search/search-types.ts';
import type { ResolvedAddress } from '../../src/fetch/url-guard.ts';
import type { LandingHop, LandingProbe } from '../../src/sponsored/landing-probe.ts';
import { createSponsored, type Sponsored, type SponsoredOptions } from '../../src/sponsored/create-sponsored.ts';

/** A public address (outside every special-purpose range) that stub names resolve to. No packet is ever sent to it. */
export const PUBLIC_ADDRESS = '93.184.215.14';

/**
 * An offline resolver: answers from `table` (an Error is thrown as the lookup failure),
 * every other name resolves to PUBLIC_ADDRESS. Records the names asked; tests may change the
 * table between calls (DNS rebinding).
 */
export function stubResolver(table: Record<string, ResolvedAddress[] | Error> = {}) {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const answer = table[hostname] ?? [{ address: PUBLIC_ADDRESS, family: 4 as const }];
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, table, resolver };
}

/**
 * An offline landing probe: answers each URL (href) from `table` (an Error is thrown as the
 * transport failure), every other URL 200 without a redirect. Records the URLs asked; tests
 * may change the table between calls.
 */
export function stubProbe(table: Record<string, LandingHop | Error> = {}) {
  const calls: string[] = [];
  const probe: LandingProbe = async (url) => {
    calls.push(url.href);
    const answer = table[url.href] ?? { status: 200, location: undefined };
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, table, probe };
}

/** A lookup failure as node:dns reports it (ENOTFOUND: no such host; EAI_AGAIN: temporary). */
export const dnsError = (code: 'ENOTFOUND' | 'EAI_AGAIN' | 'ENODATA', hostname: string): Error =>
  Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code });

/** A valid campaign file; tests override what they exercise. */
export const campaignFile = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  advertiser: 'Acme',
  title: 'Acme trail running shoes',
  url: 'https://shop.acme.example/shoes',
  content: 'Light shoes for long runs.',
  keywords: ['running shoes'],
  bid_micros: 100_000,
  budget_micros: 10_000_000,
  ...over,
});

export const searchQuery = (query: string, over: Partial<SearchQuery> = {}): SearchQuery => ({
  query,
  maxResults: 10,
  includeDomains: [],
  excludeDomains: [],
  depth: 'basic',
  ...over,
});

let requests = 0;
export const ctx = (): RequestContext => ({ requestId: `req-${++requests}`, startedAt: performance.now() });

export interface SponsoredHarness {
  sponsored: Sponsored;
  dataDir: string;
  /** The harness clock; tests move it. */
  clock: { now: Date };
  errors: unknown[];
  /** Creates campaigns through the admin API; returns their ids. */
  create(...files: Record<string, unknown>[]): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A real sponsored side on a temp sponsored.db, with a settable clock, no refresh delay and an
 * offline resolver (landing host names are resolved; tests never do real DNS).
 */
export function sponsoredHarness(options: Partial<SponsoredOptions> = {}): SponsoredHarness {
  const root = mkdtempSync(join(tmpdir(), 'scout-sponsored-'));
  const dataDir = join(root, 'data');
  const clock = { now: new Date('2026-03-10T12:00:00Z') };
  const errors: unknown[] = [];
  const sponsored = createSponsored({
    stores: options.stores ?? openSponsoredStore(dataDir),
    maxAds: 2,
    recTtlDays: 30,
    publicUrl: 'https://scout.test',
    refreshMs: 0,
    flushMs: 10,
    now: () => clock.now,
    onError: (e) => errors.push(e),
    resolver: stubResolver().resolver,
    landingProbe: stubProbe().probe,
    ...options,
  } as SponsoredOptions);
  return {
    sponsored,
    dataDir,
    clock,
    errors,
    async create(...files) {
      const ids: string[] = [];
      for (const f of files) ids.push((await sponsored.admin.create(f)).id);
      return ids;
    },
    async close() {
      await sponsored.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Harnesses closed after each test: call once at the top of a test file, then make
 * harnesses with the function it returns.
 */
export function useSponsoredHarnesses(): (...args: Parameters<typeof sponsoredHarness>) => SponsoredHarness {
  const open: SponsoredHarness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });
  return (...args) => {
    const h = sponsoredHarness(...args);
    open.push(h);
    return h;
  };
}
