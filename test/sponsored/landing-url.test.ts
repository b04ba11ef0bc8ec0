import { describe, expect, it } from 'vitest';
import { validateCampaignFile } from '../../src/sponsored/campaign-validation.ts';
import { createLandingCheck } from '../../src/sponsored/landing-check.ts';
import { domainFailure } from '../helpers/domain-failure.ts';
import {
  PUBLIC_ADDRESS,
  campaignFile,
  dnsError,
  stubProbe,
  stubResolver,
  useSponsoredHarnesses,
} from './sponsored-fixture.ts';

const harness = useSponsoredHarnesses();

const problemsOf = (
  url: string,
  landing = createLandingCheck({ allowCidrs: [], resolver: stubResolver().resolver, probe: stubProbe().probe }),
): string[] => {
  const v = validateCampaignFile(campaignFile({ url }), landing);
  return v.ok ? [] : v.problems;
};

describe('landing url: what the URL itself shows (validated with every other problem)', () => {
  // Every hostile notation is judged as the address `new URL()` turns it into.
  it.each([
    ['http://127.0.0.1/admin/v1/campaigns', '127.0.0.1 is not a public address (loopback 127.0.0.0/8)'],
    ['http://0x7f.1/', '127.0.0.1 is not a public address (loopback 127.0.0.0/8)'],
    ['http://2130706433:8080/', '127.0.0.1 is not a public address (loopback 127.0.0.0/8)'],
    ['http://0177.0.0.1/', '127.0.0.1 is not a public address (loopback 127.0.0.0/8)'],
    [
      'http://[::ffff:127.0.0.1]/',
      '::ffff:7f00:1 is not a public address (IPv4-mapped form of 127.0.0.1, loopback 127.0.0.0/8)',
    ],
    ['http://[::1]/', '::1 is not a public address (loopback ::1/128)'],
    ['http://0/', '0.0.0.0 is not a public address ("this network" 0.0.0.0/8)'],
    ['http://10.0.0.7/', '10.0.0.7 is not a public address (private-use 10.0.0.0/8)'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address (link-local 169.254.0.0/16)'],
    ['https://[fd00::1]/', 'fd00::1 is not a public address (unique-local fc00::/7)'],
    ['http://192.0.2.1/', '192.0.2.1 is not a public address (documentation (TEST-NET-1) 192.0.2.0/24)'],
  ])('refuses %s, naming the field and the range', (url, reason) => {
    expect(problemsOf(url)).toEqual([`url must be a public http(s) URL; ${reason}`]);
  });

  it.each(['http://localhost/', 'http://LOCALHOST.:8080/x', 'https://admin.localhost/', 'http://a.b.localhost./'])(
    'refuses the loopback name %s',
    (url) => {
      expect(problemsOf(url)).toEqual([
        expect.stringMatching(/^url must be a public http\(s\) URL; \S*localhost\.? is a loopback name$/),
      ]);
    },
  );

  it('refuses a port that browsers and fetch block', () => {
    expect(problemsOf('https://shop.acme.example:6667/')).toEqual([
      'url must not use port 6667: browsers and Scout’s fetch refuse it (WHATWG Fetch blocked ports)',
    ]);
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
    'ftp://files.example/x',
    'ws://shop.example/',
  ])('refuses the scheme of %s', (url) => {
    expect(problemsOf(url)).toEqual(['url must use http or https']);
  });

  it('refuses credentials in the URL', () => {
    expect(problemsOf('https://user:pw@shop.acme.example/')).toEqual(['url must not carry a user name or password']);
  });

  it('accepts public literals and names (names are resolved when the campaign is stored)', () => {
    for (const url of [
      `https://${PUBLIC_ADDRESS}/shoes`,
      'https://[2606:4700::1111]/',
      'https://shop.acme.example:8443/x',
    ])
      expect(problemsOf(url)).toEqual([]);
  });

  it('SCOUT_FETCH_ALLOW_CIDRS applies as for fetch', () => {
    const allowing = createLandingCheck({
      allowCidrs: ['127.0.0.2/32'],
      resolver: stubResolver().resolver,
      probe: stubProbe().probe,
    });
    expect(problemsOf('http://127.0.0.2:8080/landing', allowing)).toEqual([]);
    expect(problemsOf('http://127.0.0.1:8080/landing', allowing)).toHaveLength(1);
  });

  it('without a landing check passed, the strict policy applies (no allowlist)', () => {
    const v = validateCampaignFile(campaignFile({ url: 'http://127.0.0.2/' }));
    expect(v.ok).toBe(false);
  });
});

describe('landing url: host names resolved when a campaign is created or replaced', () => {
  it('refuses a name that resolves to a private address, naming it; nothing is stored', async () => {
    const dns = stubResolver({ 'intranet.acme.example': [{ address: '10.1.2.3', family: 4 }] });
    const h = harness({ resolver: dns.resolver });
    const e = await domainFailure(
      h.sponsored.admin.create(campaignFile({ url: 'https://intranet.acme.example/shoes' })),
    );
    expect(e.kind).toBe('invalid');
    expect(e.message).toBe(
      'the campaign is invalid (1 problem): 1) url must be a public http(s) URL; intranet.acme.example resolves to 10.1.2.3, which is not a public address (private-use 10.0.0.0/8)',
    );
    expect(dns.calls).toEqual(['intranet.acme.example']);
    expect(await h.sponsored.admin.list()).toEqual([]);
  });

  it('refuses when any one of the answers is not public (IPv6 included)', async () => {
    const dns = stubResolver({
      'mixed.example': [
        { address: PUBLIC_ADDRESS, family: 4 },
        { address: '::1', family: 6 },
      ],
    });
    const h = harness({ resolver: dns.resolver });
    const e = await domainFailure(h.sponsored.admin.create(campaignFile({ url: 'https://mixed.example/' })));
    expect(e.message).toContain(
      'url must be a public http(s) URL; mixed.example resolves to ::1, which is not a public address (loopback ::1/128)',
    );
  });

  it('refuses a name that does not exist; a temporary DNS failure is 503 (try again)', async () => {
    const dns = stubResolver({
      'gone.example': dnsError('ENOTFOUND', 'gone.example'),
      'flaky.example': dnsError('EAI_AGAIN', 'flaky.example'),
    });
    const h = harness({ resolver: dns.resolver });
    const gone = await domainFailure(h.sponsored.admin.create(campaignFile({ url: 'https://gone.example/' })));
    expect(gone.kind).toBe('invalid');
    expect(gone.message).toContain(
      'url host gone.example does not resolve (no such host); a landing page must resolve to a public address when the campaign is stored',
    );
    const flaky = await domainFailure(h.sponsored.admin.create(campaignFile({ url: 'https://flaky.example/' })));
    expect(flaky.kind).toBe('unavailable');
    expect(flaky.message).toBe(
      'could not check url host flaky.example (DNS lookup failed temporarily); nothing was stored, try again',
    );
    expect(await h.sponsored.admin.list()).toEqual([]);
  });

  it('replace checks the new landing url the same way and keeps the old definition', async () => {
    const dns = stubResolver({ 'intranet.acme.example': [{ address: '192.168.1.5', family: 4 }] });
    const h = harness({ resolver: dns.resolver });
    const [id] = await h.create(campaignFile());
    const e = await domainFailure(
      h.sponsored.admin.replace(id as string, campaignFile({ url: 'https://intranet.acme.example/' })),
    );
    expect(e.message).toContain(
      'intranet.acme.example resolves to 192.168.1.5, which is not a public address (private-use 192.168.0.0/16)',
    );
    expect((await h.sponsored.admin.get(id as string)).url).toBe('https://shop.acme.example/shoes');
    const literal = await domainFailure(
      h.sponsored.admin.replace(id as string, campaignFile({ url: 'http://[::ffff:127.0.0.1]:3000/' })),
    );
    expect(literal.message).toContain('IPv4-mapped form of 127.0.0.1');
  });

  it('stores a name that resolves to public addresses; IP literals are not looked up', async () => {
    const dns = stubResolver();
    const h = harness({ resolver: dns.resolver });
    await h.create(
      campaignFile({ url: 'https://shop.acme.example/shoes' }),
      campaignFile({ url: `https://${PUBLIC_ADDRESS}/x` }),
    );
    expect(dns.calls).toEqual(['shop.acme.example']);
    expect(await h.sponsored.admin.list()).toHaveLength(2);
  });

  it('SCOUT_FETCH_ALLOW_CIDRS lets a name or literal on an allowed range through (127.0.0.2 test fixtures)', async () => {
    const dns = stubResolver({ 'fixture.test': [{ address: '127.0.0.2', family: 4 }] });
    const h = harness({ resolver: dns.resolver, allowCidrs: ['127.0.0.2/32'] });
    await h.create(campaignFile({ url: 'http://fixture.test:8080/' }), campaignFile({ url: 'http://127.0.0.2:8080/' }));
    expect(await h.sponsored.admin.list()).toHaveLength(2);
    const e = await domainFailure(h.sponsored.admin.create(campaignFile({ url: 'http://127.0.0.1:8080/' })));
    expect(e.kind).toBe('invalid');
  });
});
