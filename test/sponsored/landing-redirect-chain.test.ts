import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, CampaignList, CampaignReport } from '../../src/schemas/campaign.ts';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { campaignFile, ctx, searchQuery } from './sponsored-fixture.ts';

// A real server and a real landing page on 127.0.0.2 (allowed through SCOUT_FETCH_ALLOW_CIDRS)
// that redirects to 127.0.0.1: refused as fetch refuses it, when the campaign is stored and
// when a click would send a browser there. A trap server on 127.0.0.1 proves nothing went there.

const ADMIN_TOKEN = 'landing-chain-admin-token-0123456789';

describe('a landing page that redirects to a loopback address (real server, real landing page)', () => {
  let t: TestScout;
  let landing: FixtureServer;
  let trap: FixtureServer;
  /** Where /moving redirects; undefined: it answers 200 itself. */
  let movingTo: string | undefined;
  const loopback = () => trap.url('/admin/v1/campaigns');
  const redirect = (to: () => string) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(302, { location: to() });
    res.end();
  };

  beforeAll(async () => {
    trap = await startFixtureServer({}, { host: '127.0.0.1' });
    landing = await startFixtureServer({
      '/shoes': { headers: { 'content-type': 'text/html' }, body: '<title>Shoes</title><p>Shoes.</p>' },
      '/to-loopback': redirect(loopback),
      // Two hops: the second one is refused.
      '/via': redirect(() => landing.url('/to-loopback')),
      '/moving': (req, res) => {
        if (movingTo !== undefined) return redirect(() => movingTo!)(req, res);
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<p>Shoes.</p>');
      },
    });
    t = await startTestScout({ SCOUT_ADMIN_TOKEN: ADMIN_TOKEN, SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
  });
  afterAll(async () => {
    await t?.close();
    await landing?.close();
    await trap?.close();
  });

  const admin = { key: null, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };

  it('is refused when the campaign is created or updated through the admin API (400, nothing stored)', async () => {
    for (const [path, from] of [
      ['/to-loopback', '/to-loopback'],
      ['/via', '/to-loopback'],
    ] as const) {
      const r = await t.request<ErrorBody>('POST', '/admin/v1/campaigns', {
        ...admin,
        body: campaignFile({ url: landing.url(path) }),
      });
      expect(r.status, path).toBe(400);
      expect(r.body.error.message).toContain(
        `url ${landing.url(from)} redirects to ${loopback()}, which is refused: url must be a public http(s) URL; 127.0.0.1 is not a public address (loopback 127.0.0.0/8)`,
      );
    }
    expect((await t.request<CampaignList>('GET', '/admin/v1/campaigns', admin)).body.campaigns).toEqual([]);
    expect(trap.requests).toEqual([]);

    const created = await t.request<Campaign>('POST', '/admin/v1/campaigns', {
      ...admin,
      body: campaignFile({ url: landing.url('/shoes') }),
    });
    expect(created.status).toBe(201);
    const replaced = await t.request('PUT', `/admin/v1/campaigns/${created.body.id}`, {
      ...admin,
      body: campaignFile({ url: landing.url('/to-loopback') }),
    });
    expect(replaced.status).toBe(400);
    expect((await t.request<Campaign>('GET', `/admin/v1/campaigns/${created.body.id}`, admin)).body.url).toBe(
      landing.url('/shoes'),
    );
    expect((await t.request('DELETE', `/admin/v1/campaigns/${created.body.id}`, admin)).status).toBe(204);
  });

  it('a click on a landing page that starts redirecting there after it was stored is 403, not redirected, not counted', async () => {
    movingTo = undefined;
    const created = await t.request<Campaign>('POST', '/admin/v1/campaigns', {
      ...admin,
      body: campaignFile({ url: landing.url('/moving') }),
    });
    expect(created.status).toBe(201);
    const [ad] = (await t.scout.sponsored.stage.select(searchQuery('running shoes'), ctx())).map((p) => p.result);
    const click = ad!.url as string;
    const path = new URL(click).pathname;
    const follow = () => fetch(`${t.baseUrl}${path}`, { redirect: 'manual' });

    const first = await follow();
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(landing.url('/moving'));

    movingTo = loopback();
    const refused = await follow();
    expect(refused.status).toBe(403);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.json()).toEqual({
      error: {
        status: 403,
        message:
          'sponsored link refused: the landing page on 127.0.0.2 redirects to 127.0.0.1, which is not at a public address',
      },
    });
    await t.scout.sponsored.flush();
    const row = (await t.request<CampaignReport>('GET', '/admin/v1/campaigns/report', admin)).body.campaigns.find(
      (c) => c.id === created.body.id,
    );
    expect(defined(row, "the campaign's report row").clicks).toBe(1);
    expect(trap.requests).toEqual([]);
  });
});
