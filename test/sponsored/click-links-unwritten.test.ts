import { afterEach, describe, expect, it } from 'vitest';
import { createSponsored, type Sponsored, type SponsoredOptions } from '../../src/sponsored/create-sponsored.ts';
import { newRecId, newRecIdKey } from '../../src/sponsored/rec-id.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import { domainFailure } from '../helpers/domain-failure.ts';
import {
  campaignFile,
  ctx,
  searchQuery,
  sponsoredHarness,
  stubProbe,
  stubResolver,
  type SponsoredHarness,
} from './sponsored-fixture.ts';

/**
 * rec_ids whose impression row was never written: the process that showed them is "killed"
 * (its queue is never written while the test looks: a write interval of an hour), and a second
 * sponsored side on the same sponsored.db (a replica, or the process started again) is asked.
 */
const DAY = 86_400_000;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  // Replicas first: the harness deletes the folder they use.
  for (const s of open.splice(0).reverse()) await s.close();
});

function killedHarness(recIdKey: Uint8Array): SponsoredHarness {
  const h = sponsoredHarness({ flushMs: 3_600_000, recIdKey });
  open.push(h);
  return h;
}

function replicaOf(h: SponsoredHarness, options: Partial<SponsoredOptions> = {}): Sponsored {
  const s = createSponsored({
    stores: openSponsoredStore(h.dataDir),
    maxAds: 2,
    recTtlDays: 30,
    publicUrl: 'https://scout.test',
    refreshMs: 0,
    flushMs: 10,
    now: () => h.clock.now,
    onError: (e) => h.errors.push(e),
    resolver: stubResolver().resolver,
    landingProbe: stubProbe().probe,
    ...options,
  } as SponsoredOptions);
  open.push(s);
  return s;
}

async function shownRecId(h: SponsoredHarness): Promise<string> {
  const [ad] = (await h.sponsored.stage.select(searchQuery('running shoes'), ctx())).map((p) => p.result);
  return ad?.rec_id as string;
}

describe('a signed rec_id whose impression row was never written', () => {
  it('resolves through the campaign for the TTL: click and agent read, neither charged nor counted', async () => {
    const key = newRecIdKey();
    const h = killedHarness(key);
    await h.create(campaignFile({ url: 'https://shop.acme.example/shoes?utm=scout' }));
    const recId = await shownRecId(h);
    const other = replicaOf(h, { recIdKey: key });
    const clickUrl = new URL(`https://scout.test/v1/r/${recId}`);

    h.clock.now = new Date(h.clock.now.getTime() + 29 * DAY);
    expect(await other.clicks.follow(recId, true)).toBe('https://shop.acme.example/shoes?utm=scout');
    expect(await other.resolveClickUrl(clickUrl)).toEqual({
      landingUrl: 'https://shop.acme.example/shoes?utm=scout',
      clickPath: 'agent_read',
    });
    await other.flush();
    // No impression row: the read is not charged, and neither it nor the click is counted.
    expect((await other.admin.report()).campaigns[0]).toMatchObject({
      impressions: 0,
      agent_reads: 0,
      clicks: 0,
      spend_micros: 0,
    });

    h.clock.now = new Date(h.clock.now.getTime() + 2 * DAY);
    expect((await domainFailure(other.clicks.follow(recId, true))).kind).toBe('not_found');
    const e = await domainFailure(other.resolveClickUrl(clickUrl));
    expect(e.kind).toBe('invalid');
    expect(e.message).toMatch(/^unknown or expired sponsored link .*valid for 30 days/);
  });

  it('follows the campaign as it is now: its current URL, paused too; deleted leads nowhere', async () => {
    const key = newRecIdKey();
    const h = killedHarness(key);
    const [id] = await h.create(campaignFile());
    const recId = await shownRecId(h);
    const other = replicaOf(h, { recIdKey: key });
    await other.admin.replace(id as string, campaignFile({ url: 'https://shop.acme.example/new' }));
    expect(await other.clicks.follow(recId, false)).toBe('https://shop.acme.example/new');
    await other.admin.pause(id as string);
    expect(await other.clicks.follow(recId, false)).toBe('https://shop.acme.example/new');
    await other.admin.delete(id as string);
    expect((await domainFailure(other.clicks.follow(recId, false))).kind).toBe('not_found');
  });

  it('resolves only where the key is the same: another key, or a forged id, is unknown', async () => {
    const h = killedHarness(newRecIdKey());
    const [id] = await h.create(campaignFile());
    const recId = await shownRecId(h);
    const other = replicaOf(h, { recIdKey: newRecIdKey() });
    expect((await domainFailure(other.clicks.follow(recId, true))).kind).toBe('not_found');
    // Made with a key Scout does not hold, for a real campaign and a fresh time.
    const forged = newRecId(id as string, newRecIdKey(), h.clock.now.getTime());
    expect((await domainFailure(h.sponsored.clicks.follow(forged, true))).kind).toBe('not_found');
  });

  it('with its impression row written, resolves from the row: the URL shown, and the read charged once', async () => {
    const key = newRecIdKey();
    const h = killedHarness(key);
    const [id] = await h.create(campaignFile());
    const recId = await shownRecId(h);
    await h.sponsored.flush();
    const other = replicaOf(h, { recIdKey: key });
    await other.admin.replace(id as string, campaignFile({ url: 'https://shop.acme.example/new' }));
    const clickUrl = new URL(`https://scout.test/v1/r/${recId}`);
    expect(await other.resolveClickUrl(clickUrl)).toEqual({
      landingUrl: 'https://shop.acme.example/shoes',
      clickPath: 'agent_read',
    });
    expect(await other.resolveClickUrl(clickUrl)).toMatchObject({ landingUrl: 'https://shop.acme.example/shoes' });
    await other.flush();
    expect((await other.admin.report()).campaigns[0]).toMatchObject({
      impressions: 1,
      agent_reads: 1,
      spend_micros: 100_000,
    });
  });
});

describe('a rec_id of the old layout (unsigned, 25 characters)', () => {
  it('resolves from its impression row for the TTL, and not without one', async () => {
    const h = sponsoredHarness();
    open.push(h);
    const [id] = await h.create(campaignFile());
    const legacy = 'rec_0NJ3ok2h9fK2xq8TZbW1cLmQe';
    const store = openSponsoredStore(h.dataDir);
    try {
      const shownAt = h.clock.now.getTime();
      const impression = {
        recId: legacy,
        campaignId: id as string,
        landingUrl: 'https://shop.acme.example/then',
        shownAt,
        requestId: 'req-old',
        position: 1,
      };
      await store.events.write([{ kind: 'impression', impression }]);
    } finally {
      await store.close();
    }
    expect(await h.sponsored.clicks.follow(legacy, true)).toBe('https://shop.acme.example/then');
    expect(await h.sponsored.resolveClickUrl(new URL(`https://scout.test/v1/r/${legacy}`))).toMatchObject({
      landingUrl: 'https://shop.acme.example/then',
    });
    await h.sponsored.flush();
    expect((await h.sponsored.admin.report()).campaigns[0]).toMatchObject({
      impressions: 1,
      agent_reads: 1,
      clicks: 1,
      spend_micros: 100_000,
    });
    expect((await domainFailure(h.sponsored.clicks.follow('rec_0NJ3ok2h9fK2xq8TZbW1cLmQf', true))).kind).toBe(
      'not_found',
    );
    h.clock.now = new Date(h.clock.now.getTime() + 31 * DAY);
    expect((await domainFailure(h.sponsored.clicks.follow(legacy, true))).kind).toBe('not_found');
  });
});
