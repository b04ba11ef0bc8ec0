import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { stubProbe, stubResolver } from '../sponsored/sponsored-fixture.ts';
import { html, type Site, startMapSite } from './map-fixture.ts';

export interface RefusedHopSite {
  scout: TestScout;
  site: Site;
  /** The start URL, on site.test (the fixture, allowed). */
  start: string;
  /** The origin of inner.site.test, a subdomain of the site that resolves to 127.0.0.1 (refused). */
  inner: string;
  close(): Promise<void>;
}

/**
 * A site whose /go redirects to a subdomain resolving to 127.0.0.1, beside a fine /ok page, and
 * a Scout that reaches it through a stub resolver and the operator allowlist: for the map and
 * the crawl alike, the refused hop must be skipped while the walk goes on.
 */
export async function startRefusedHopSite(): Promise<RefusedHopSite> {
  const site = await startMapSite({
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
    '/': html('Named home', ['/go', '/ok']),
    '/go': { status: 302, location: (o) => `${o.self.replace('127.0.0.2', 'inner.site.test')}/x` },
    '/ok': html('Fine page'),
  });
  const { resolver } = stubResolver({
    'site.test': [{ address: '127.0.0.2', family: 4 }],
    'inner.site.test': [{ address: '127.0.0.1', family: 4 }],
  });
  const scout = await startTestScout(
    { SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32', SCOUT_MAP_DELAY_MS: '0' },
    { resolver, landingProbe: stubProbe().probe },
  );
  return {
    scout,
    site,
    start: `http://site.test:${site.server.port}/`,
    inner: `http://inner.site.test:${site.server.port}`,
    async close() {
      await scout.close();
      await site.server.close();
    },
  };
}
