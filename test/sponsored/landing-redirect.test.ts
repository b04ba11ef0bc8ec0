import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import type { SponsoredOptions } from '../../src/sponsored/create-sponsored.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { ADMIN_TOKEN, sponsoredApp, type SponsoredApp } from '../http/sponsored-app.ts';
import { campaignFile, ctx, dnsError, searchQuery, stubProbe, stubResolver } from './sponsored-fixture.ts';

/** GET /v1/r/<rec_id> and the admin API, with the landing host's DNS under the test's control. */
const open: SponsoredApp[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function app(options: Partial<SponsoredOptions> = {}) {
  const dns = stubResolver();
  const s = await sponsoredApp(ADMIN_TOKEN, { resolver: dns.resolver, ...options });
  open.push(s);
  return { s, dns };
}

async function clickPath(s: SponsoredApp): Promise<string> {
  const [ad] = (await s.h.sponsored.stage.select(searchQuery('running shoes'), ctx())).map((p) => p.result);
  return new URL(ad?.url as string).pathname;
}

const clicks = async (s: SponsoredApp) => {
  await s.h.sponsored.flush();
  return (await s.h.sponsored.admin.report()).campaigns[0]?.clicks;
};

describe('GET /v1/r/<rec_id>: the landing host is checked again at click time', () => {
  it('a landing name that now resolves to a private address (DNS rebinding) is 403, not redirected, not counted', async () => {
    const { s, dns } = await app();
    await s.h.create(campaignFile({ url: 'https://shop.acme.example/shoes' }));
    const path = await clickPath(s);
    expect((await s.app.inject({ method: 'GET', url: path })).statusCode).toBe(302);

    dns.table['shop.acme.example'] = [{ address: '127.0.0.1', family: 4 }];
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await s.app.inject({ method, url: path });
      expect(res.statusCode).toBe(403);
      expect(res.headers.location).toBeUndefined();
      if (method === 'GET') {
        expectShape(ErrorBody, res.json());
        expect(res.json().error).toEqual({
          status: 403,
          message: 'sponsored link refused: the landing page on shop.acme.example is not at a public address',
        });
      }
    }
    expect(await clicks(s)).toBe(1);

    // Back on a public address: followed again.
    delete dns.table['shop.acme.example'];
    expect((await s.app.inject({ method: 'GET', url: path })).statusCode).toBe(302);
  });

  it('a landing host that cannot be resolved at click time is 502', async () => {
    const { s, dns } = await app();
    await s.h.create(campaignFile());
    const path = await clickPath(s);
    dns.table['shop.acme.example'] = dnsError('EAI_AGAIN', 'shop.acme.example');
    const res = await s.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toBe(
      'sponsored link could not be followed: the landing page host shop.acme.example could not be resolved (DNS lookup failed temporarily); try again later',
    );
    expect(await clicks(s)).toBe(0);
  });

  it('a campaign stored before landing urls were checked, on a loopback literal, is 403 without a lookup', async () => {
    const { s, dns } = await app();
    const store = openSponsoredStore(s.h.dataDir);
    await store.campaigns.insert({
      id: 'cmp_oldlandingurl0',
      advertiser: 'Old',
      title: 'Old',
      url: 'http://127.0.0.1:8080/admin/v1/campaigns',
      content: 'x',
      keywords: ['running shoes'],
      negativeKeywords: [],
      countries: [],
      bidMicros: 1_000_000,
      budgetMicros: 10_000_000,
      dailyCapMicros: null,
      startDate: null,
      endDate: null,
      status: 'active',
      disclosure: 'Sponsored · Old',
      incentive: null,
      createdAt: '2026-03-10T00:00:00.000Z',
      updatedAt: '2026-03-10T00:00:00.000Z',
    });
    await store.close();
    const [ad] = (await s.h.sponsored.stage.select(searchQuery('running shoes'), ctx())).map((p) => p.result);
    expect(ad?.title).toBe('Old');
    dns.calls.length = 0;
    const res = await s.app.inject({ method: 'GET', url: new URL(ad?.url as string).pathname });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(
      'sponsored link refused: the landing page on 127.0.0.1 is not at a public address',
    );
    expect(dns.calls).toEqual([]);
  });

  it('a landing page that now redirects to a private address is 403; one that does not answer the check is 502; neither counted', async () => {
    const probe = stubProbe();
    const { s } = await app({ landingProbe: probe.probe });
    await s.h.create(campaignFile({ url: 'https://shop.acme.example/shoes' }));
    const path = await clickPath(s);
    probe.table['https://shop.acme.example/shoes'] = {
      status: 302,
      location: 'http://169.254.169.254/latest/meta-data/',
    };
    const refused = await s.app.inject({ method: 'GET', url: path });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.json().error.message).toBe(
      'sponsored link refused: the landing page on shop.acme.example redirects to 169.254.169.254, which is not at a public address',
    );

    probe.table['https://shop.acme.example/shoes'] = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
    });
    const unchecked = await s.app.inject({ method: 'GET', url: path });
    expect(unchecked.statusCode).toBe(502);
    expect(unchecked.headers.location).toBeUndefined();
    expect(unchecked.json().error.message).toBe(
      'sponsored link could not be followed: the landing page on shop.acme.example could not be checked (connection refused by shop.acme.example); try again later',
    );
    expect(await clicks(s)).toBe(0);
  });

  it('SCOUT_FETCH_ALLOW_CIDRS applies at click time too', async () => {
    const { s, dns } = await app({ allowCidrs: ['127.0.0.2/32'] });
    dns.table['fixture.test'] = [{ address: '127.0.0.2', family: 4 }];
    await s.h.create(campaignFile({ url: 'http://fixture.test:8080/landing' }));
    const res = await s.app.inject({ method: 'GET', url: await clickPath(s) });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://fixture.test:8080/landing');
  });
});

describe('POST /admin/v1/campaigns refuses a non-public landing url', () => {
  const post = (s: SponsoredApp, body: unknown) =>
    s.app.inject({
      method: 'POST',
      url: '/admin/v1/campaigns',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: body as object,
    });

  it('400 naming the field and the reason, for a literal and for a name', async () => {
    const { s, dns } = await app();
    dns.table['intranet.acme.example'] = [{ address: '172.16.0.9', family: 4 }];
    const literal = await post(s, campaignFile({ url: 'http://0x7f.1:8080/admin/v1/campaigns' }));
    expect(literal.statusCode).toBe(400);
    expect(literal.json().error.message).toContain(
      'url must be a public http(s) URL; 127.0.0.1 is not a public address (loopback 127.0.0.0/8)',
    );
    const named = await post(s, campaignFile({ url: 'https://intranet.acme.example/' }));
    expect(named.statusCode).toBe(400);
    expect(named.json().error.message).toContain(
      'url must be a public http(s) URL; intranet.acme.example resolves to 172.16.0.9, which is not a public address (private-use 172.16.0.0/12)',
    );
    expect((await s.h.sponsored.admin.list()).length).toBe(0);
  });
});
