import type pg from 'pg';

export interface DayCount {
  campaignId: string;
  day: string;
  impressions: number;
  reads: number;
  clicks: number;
  spend: number;
}

/** What one batch adds to the per-campaign, per-day counters. */
export interface DayCounts {
  of(campaignId: string, day: string): DayCount;
  all(): DayCount[];
}

export function dayCounts(): DayCounts {
  const by = new Map<string, DayCount>();
  return {
    of(campaignId, day) {
      const key = `${campaignId}\u0000${day}`;
      let c = by.get(key);
      if (!c) by.set(key, (c = { campaignId, day, impressions: 0, reads: 0, clicks: 0, spend: 0 }));
      return c;
    },
    all: () => [...by.values()],
  };
}

const byCampaignDay = (a: DayCount, b: DayCount): number =>
  a.campaignId < b.campaignId ? -1 : a.campaignId > b.campaignId ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : 0;

/**
 * Adds a batch's counts in one upsert, at the end of its transaction. Rows go in (campaign,
 * day) order: every batch of every replica bumps these rows, and one order for all means
 * they queue on each other's row locks instead of deadlocking.
 */
export async function bumpDays(c: pg.ClientBase, counts: DayCounts): Promise<void> {
  const rows = counts.all().sort(byCampaignDay);
  if (rows.length === 0) return;
  await c.query({
    name: 'scout_ad_bump_days',
    text: `INSERT INTO campaign_days AS d (campaign_id, day, impressions, reads, clicks, spend_micros)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
           ON CONFLICT (campaign_id, day) DO UPDATE SET impressions = d.impressions + EXCLUDED.impressions,
             reads = d.reads + EXCLUDED.reads, clicks = d.clicks + EXCLUDED.clicks, spend_micros = d.spend_micros + EXCLUDED.spend_micros`,
    values: [
      rows.map((r) => r.campaignId),
      rows.map((r) => r.day),
      rows.map((r) => r.impressions),
      rows.map((r) => r.reads),
      rows.map((r) => r.clicks),
      rows.map((r) => r.spend),
    ],
  });
}
