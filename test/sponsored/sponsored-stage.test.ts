import { describe, expect, it } from 'vitest';
import { Result } from '../../src/schemas/search.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { campaignFile, ctx, searchQuery, useSponsoredHarnesses, type SponsoredHarness } from './sponsored-fixture.ts';

const harness = useSponsoredHarnesses();

const picks = (h: SponsoredHarness, q: string, over = {}) => h.sponsored.stage.select(searchQuery(q, over), ctx());
const select = async (h: SponsoredHarness, q: string, over = {}) => (await picks(h, q, over)).map((p) => p.result);
const titles = async (h: SponsoredHarness, q: string, over = {}) => (await select(h, q, over)).map((r) => r.title);

describe('sponsored entries in a search', () => {
  it('are complete, labelled Result objects with a click URL per impression', async () => {
    const h = harness();
    await h.create(
      campaignFile({
        url: 'https://www.acme.example/shoes?ref=scout',
        incentive: { kind: 'code', code: 'RUN10', benefit: '10% off' },
      }),
      campaignFile({
        advertiser: 'Zed',
        title: 'Zed shoes',
        keywords: ['shoes'],
        bid_micros: 50_000,
        disclosure: 'Anzeige · Zed',
      }),
    );
    const ads = await select(h, 'best running shoes');
    expect(ads).toHaveLength(2);
    for (const ad of ads) {
      expectShape(Result, ad);
      expect(ad.type).toBe('sponsored');
      expect(ad.rec_id).toMatch(/^rec_[0-9A-Za-z]{52}$/);
      expect(ad.url).toBe(`https://scout.test/v1/r/${ad.rec_id}`);
    }
    expect(ads[0]).toMatchObject({
      position: 1,
      title: 'Acme trail running shoes',
      domain: 'acme.example',
      content: 'Light shoes for long runs.',
      disclosure: 'Sponsored · Acme',
      incentive: { kind: 'code', code: 'RUN10', benefit: '10% off' },
    });
    expect(ads[1]).toMatchObject({ position: 2, title: 'Zed shoes', disclosure: 'Anzeige · Zed' });
    expect(ads[1]).not.toHaveProperty('incentive');
    const again = await picks(h, 'best running shoes');
    expect(again[0]?.result.rec_id).not.toBe(ads[0]?.rec_id);
    // Who pays goes beside each entry, for shapes that name the advertiser in the text (src/compat).
    expect(again.map((p) => p.advertiser)).toEqual(['Acme', 'Zed']);
  });

  it('a query that matches no keyword gets no ads', async () => {
    const h = harness();
    await h.create(campaignFile());
    expect(await select(h, 'weather in paris tomorrow')).toEqual([]);
    expect(await select(h, '!!! ???')).toEqual([]);
    expect(await select(h, 'running')).toEqual([]);
  });

  it('shows at most SCOUT_SPONSORED_MAX entries, ranked by bid × relevance; 0 turns ads off', async () => {
    const h = harness();
    await h.create(
      campaignFile({ title: 'A', keywords: ['shoes'], bid_micros: 150_000 }), // 150k × 1/3
      campaignFile({ title: 'B', keywords: ['running shoes'], bid_micros: 100_000 }), // 100k × 2/3
      campaignFile({ title: 'C', keywords: ['cheap running shoes'], bid_micros: 60_000 }), // 60k × 3/3
    );
    expect(await titles(h, 'cheap running shoes')).toEqual(['B', 'C']);
    const off = harness({ maxAds: 0 });
    await off.create(campaignFile());
    expect(await select(off, 'running shoes')).toEqual([]);
  });

  it('applies the request country, dates, status and domain filters to ads', async () => {
    const h = harness();
    const [us, , , paused] = await h.create(
      campaignFile({ title: 'US only', countries: ['US'] }),
      campaignFile({ title: 'From April', start_date: '2026-04-01' }),
      campaignFile({ title: 'Until March 9', end_date: '2026-03-09' }),
      campaignFile({ title: 'Paused' }),
    );
    await h.sponsored.admin.pause(paused as string);
    expect(await titles(h, 'running shoes', { country: 'US' })).toEqual(['US only']);
    expect(await titles(h, 'running shoes', { country: 'FR' })).toEqual([]);
    expect(await titles(h, 'running shoes', { country: 'US', excludeDomains: ['acme.example'] })).toEqual([]);
    expect(await titles(h, 'running shoes', { country: 'US', includeDomains: ['docs.python.org'] })).toEqual([]);
    expect(await titles(h, 'running shoes', { country: 'US', includeDomains: ['acme.example'] })).toEqual(['US only']);
    h.clock.now = new Date('2026-04-01T00:00:00Z');
    expect(await titles(h, 'running shoes')).toEqual(['From April']);
    await h.sponsored.admin.resume(paused as string);
    await h.sponsored.admin.delete(us as string);
    // Equal bids, relevance and creation time: the order is the ids', so compare as a set.
    expect((await titles(h, 'running shoes', { country: 'US' })).sort()).toEqual(['From April', 'Paused']);
  });

  it('budget exhaustion stops a campaign; each rec_id is charged once', async () => {
    const h = harness();
    const [id] = await h.create(
      campaignFile({ bid_micros: 400, budget_micros: 1000 }),
      campaignFile({ title: 'Other', bid_micros: 1 }),
    );
    const read = async () => {
      const [ad] = await select(h, 'running shoes');
      expect(ad?.title).toBe('Acme trail running shoes');
      const click = new URL(ad?.url as string);
      await h.sponsored.resolveClickUrl(click);
      await h.sponsored.resolveClickUrl(click); // repeat: free
      await h.sponsored.flush();
    };
    await read();
    await read();
    let row = (await h.sponsored.admin.report()).campaigns.find((c) => c.id === id);
    expect(row).toMatchObject({ impressions: 2, agent_reads: 2, spend_micros: 800, remaining_micros: 200 });
    await read(); // charged the 200 left, not the bid
    row = (await h.sponsored.admin.report()).campaigns.find((c) => c.id === id);
    expect(row).toMatchObject({
      impressions: 3,
      agent_reads: 3,
      spend_micros: 1000,
      remaining_micros: 0,
      read_rate: 1,
    });
    expect(await titles(h, 'running shoes')).toEqual(['Other']);
  });

  it('a spent daily cap stops the campaign until the next UTC day', async () => {
    const h = harness();
    await h.create(campaignFile({ bid_micros: 500, daily_cap_micros: 500 }));
    const [ad] = await select(h, 'running shoes');
    await h.sponsored.resolveClickUrl(new URL(ad?.url as string));
    await h.sponsored.flush();
    expect(await select(h, 'running shoes')).toEqual([]);
    h.clock.now = new Date('2026-03-11T00:00:01Z');
    expect(await titles(h, 'running shoes')).toEqual(['Acme trail running shoes']);
  });

  it('writes impressions behind the response, in batches', async () => {
    const h = harness({ flushMs: 60_000 });
    await h.create(campaignFile());
    for (let i = 0; i < 3; i++) await select(h, 'running shoes');
    const store = openSponsoredStore(h.dataDir);
    try {
      expect(await store.events.stats()).toEqual([]);
      await h.sponsored.flush();
      expect((await store.events.stats())[0]?.impressions).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('picks up campaigns written by another process (the CLI) through the store version', async () => {
    const h = harness({ refreshMs: 0 });
    expect(await select(h, 'running shoes')).toEqual([]);
    const cli = openSponsoredStore(h.dataDir);
    await cli.campaigns.insert({
      id: 'cmp_fromcli',
      advertiser: 'Cli',
      title: 'From the CLI',
      url: 'https://cli.example/',
      content: 'x',
      keywords: ['running shoes'],
      negativeKeywords: [],
      countries: [],
      bidMicros: 1,
      budgetMicros: 10,
      dailyCapMicros: null,
      startDate: null,
      endDate: null,
      status: 'active',
      disclosure: 'Sponsored · Cli',
      incentive: null,
      createdAt: '2026-03-10T00:00:00.000Z',
      updatedAt: '2026-03-10T00:00:00.000Z',
    });
    await cli.close();
    expect(await titles(h, 'running shoes')).toEqual(['From the CLI']);
  });

  it('checks the store version at most every refreshMs; changes made through this process apply at once', async () => {
    const h = harness({ refreshMs: 60_000 });
    const [id] = await h.create(campaignFile({ title: 'Admin' }));
    expect(await titles(h, 'running shoes')).toEqual(['Admin']);
    await h.sponsored.admin.pause(id as string);
    expect(await titles(h, 'running shoes')).toEqual([]);
    const other = openSponsoredStore(h.dataDir);
    await other.campaigns.setStatus(id as string, 'active', '2026-03-10T12:00:00.000Z');
    await other.close();
    expect(await titles(h, 'running shoes')).toEqual([]); // cached index, version not checked yet
    h.clock.now = new Date(h.clock.now.getTime() + 60_000);
    expect(await titles(h, 'running shoes')).toEqual(['Admin']);
  });

  it('a failing ad store shows no ads and reports the error instead of failing the search', async () => {
    const donor = harness();
    const broken = openSponsoredStore(donor.dataDir);
    await broken.close(); // a real store whose connection is gone: every call throws
    const h = harness({ stores: broken });
    expect(await select(h, 'running shoes')).toEqual([]);
    expect(h.errors).toHaveLength(1);
  });
});
