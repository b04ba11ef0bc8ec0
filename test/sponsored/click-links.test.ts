import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchService } from '../../src/fetch/fetch-service.ts';
import { extractDocument } from '../../src/extract/extract-document.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { campaignFile, ctx, searchQuery, useSponsoredHarnesses, type SponsoredHarness } from './sponsored-fixture.ts';
import { domainFailure } from '../helpers/domain-failure.ts';

const harness = useSponsoredHarnesses();

const failure = domainFailure;

/** One impression of the default campaign; its click URL. */
async function adUrl(h: SponsoredHarness): Promise<URL> {
  const [ad] = (await h.sponsored.stage.select(searchQuery('running shoes'), ctx())).map((p) => p.result);
  return new URL(ad?.url as string);
}

describe('resolveClickUrl (the fetch service hook)', () => {
  it('leaves every URL that is not one of Scout’s click URLs alone', async () => {
    const h = harness();
    for (const u of [
      'https://other.test/v1/r/rec_x',
      'https://scout.test/v1/search',
      'http://scout.test/v1/r/rec_x',
      'https://scout.test:444/v1/r/rec_x',
    ]) {
      expect(await h.sponsored.resolveClickUrl(new URL(u))).toBeUndefined();
    }
  });

  it('unwraps a click URL to the landing page with click_path agent_read, before and after the write-behind', async () => {
    const h = harness({ flushMs: 60_000 });
    await h.create(campaignFile({ url: 'https://shop.acme.example/shoes?utm=scout' }));
    const url = await adUrl(h);
    // The impression is still queued: the rec_id resolves already.
    expect(await h.sponsored.resolveClickUrl(url)).toEqual({
      landingUrl: 'https://shop.acme.example/shoes?utm=scout',
      clickPath: 'agent_read',
    });
    await h.sponsored.flush();
    expect(await h.sponsored.resolveClickUrl(url)).toEqual({
      landingUrl: 'https://shop.acme.example/shoes?utm=scout',
      clickPath: 'agent_read',
    });
    await h.sponsored.flush();
    const [row] = (await h.sponsored.admin.report()).campaigns;
    expect(row).toMatchObject({ impressions: 1, agent_reads: 1, spend_micros: 100_000 });
  });

  it('an unknown, malformed or expired rec_id is 400 with a clear message', async () => {
    const h = harness();
    await h.create(campaignFile());
    const url = await adUrl(h);
    await h.sponsored.flush();
    for (const bad of [
      'https://scout.test/v1/r/rec_0000000000000000000000000',
      'https://scout.test/v1/r/nonsense',
      'https://scout.test/v1/r/',
    ]) {
      const e = await failure(h.sponsored.resolveClickUrl(new URL(bad)));
      expect(e.kind).toBe('invalid');
      expect(e.message).toMatch(/^unknown or expired sponsored link .*valid for 30 days/);
    }
    h.clock.now = new Date(h.clock.now.getTime() + 29 * 86_400_000);
    expect(await h.sponsored.resolveClickUrl(url)).toBeDefined();
    h.clock.now = new Date(h.clock.now.getTime() + 2 * 86_400_000);
    expect((await failure(h.sponsored.resolveClickUrl(url))).kind).toBe('invalid');
  });

  it('honours a public URL with a path prefix', async () => {
    const h = harness({ publicUrl: 'https://example.test/scout' });
    await h.create(campaignFile());
    const url = await adUrl(h);
    expect(url.href).toMatch(/^https:\/\/example\.test\/scout\/v1\/r\/rec_/);
    expect(await h.sponsored.resolveClickUrl(url)).toMatchObject({ clickPath: 'agent_read' });
  });
});

describe('POST /v1/fetch of a click URL (fetch service with the hook)', () => {
  let site: FixtureServer;
  beforeAll(async () => {
    site = await startFixtureServer({
      '/landing': { status: 302, headers: { location: '/final' } },
      '/final': { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'The shoe shop' },
    });
  });
  afterAll(() => site.close());

  it('is unwrapped locally: final_url after redirects, unwrapped, click_path agent_read, one charge', async () => {
    // The fixture site is on 127.0.0.2: the operator allowlist admits it for campaigns as for fetch.
    const h = harness({ allowCidrs: ['127.0.0.2/32'] });
    await h.create(campaignFile({ url: site.url('/landing') }));
    // scout.test resolves nowhere: a request to Scout itself would fail the fetch.
    const fetcher = createFetchService({
      allowCidrs: ['127.0.0.2/32'],
      timeoutMs: 5000,
      extract: extractDocument,
      resolver: async () => [],
      resolveClickUrl: h.sponsored.resolveClickUrl,
    });
    try {
      const click = (await adUrl(h)).href;
      const out = await fetcher.fetch({ url: click, maxChars: 50_000 });
      expect(out).toMatchObject({
        url: click,
        finalUrl: site.url('/final'),
        meta: { unwrapped: true, click_path: 'agent_read' },
      });
      expect(out.content).toContain('The shoe shop');
      await fetcher.fetch({ url: click, maxChars: 50_000 });
      expect(site.requests.map((r) => r.path)).toEqual(['/landing', '/final', '/landing', '/final']);
      const e = await failure(
        fetcher.fetch({ url: 'https://scout.test/v1/r/rec_AAAAAAAAAAAAAAAAAAAAAAAAA', maxChars: 50_000 }),
      );
      expect(e.kind).toBe('invalid');
      await h.sponsored.flush();
      const [row] = (await h.sponsored.admin.report()).campaigns;
      expect(row).toMatchObject({ agent_reads: 1, spend_micros: 100_000 });
    } finally {
      await fetcher.close();
    }
  });
});

describe('follow (the redirect endpoint)', () => {
  it('gives the landing page and records a click only when asked', async () => {
    const h = harness();
    await h.create(campaignFile());
    const recId = (await adUrl(h)).pathname.split('/').pop() as string;
    expect(await h.sponsored.clicks.follow(recId, true)).toBe('https://shop.acme.example/shoes');
    expect(await h.sponsored.clicks.follow(recId, false)).toBe('https://shop.acme.example/shoes');
    await h.sponsored.flush();
    expect((await h.sponsored.admin.report()).campaigns[0]).toMatchObject({
      clicks: 1,
      agent_reads: 0,
      spend_micros: 0,
    });
    expect((await failure(h.sponsored.clicks.follow('rec_BBBBBBBBBBBBBBBBBBBBBBBBB', true))).kind).toBe('not_found');
  });
});
