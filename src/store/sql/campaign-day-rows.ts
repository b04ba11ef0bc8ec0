import type { CampaignSpend, CampaignStats } from '../ports.ts';
import { int, type SqlCodec } from './sql-codec.ts';

/**
 * Rows of the sums over the `campaign_days` counters ⇄ CampaignSpend and CampaignStats, for
 * the SQLite and the PostgreSQL store alike: sums are numbers from SQLite, numeric text from pg.
 */

export interface SpendRow {
  campaign_id: string;
  total: number | string;
  day: number | string;
}

export interface StatsRow {
  campaign_id: string;
  impressions: number | string;
  reads: number | string;
  clicks: number | string;
  spend: number | string;
}

export const spendFromRow = (r: SpendRow): CampaignSpend => ({
  campaignId: r.campaign_id,
  totalMicros: int(r.total),
  dayMicros: int(r.day),
});

export const statsFromRow = (r: StatsRow): CampaignStats => ({
  campaignId: r.campaign_id,
  impressions: int(r.impressions),
  reads: int(r.reads),
  clicks: int(r.clicks),
  spendMicros: int(r.spend),
});

/** Spend of every campaign that has any: all time, and on the day given as the one parameter. */
export const spendSql = (codec: SqlCodec): string =>
  `SELECT campaign_id, SUM(spend_micros) AS total, COALESCE(SUM(CASE WHEN day = ${codec.param(1)} THEN spend_micros END), 0) AS day
   FROM campaign_days GROUP BY campaign_id HAVING SUM(spend_micros) > 0 ORDER BY campaign_id`;

/** Counts per campaign from the day given as the one parameter on ('' for all time). */
export const statsSql = (codec: SqlCodec): string =>
  `SELECT campaign_id, SUM(impressions) AS impressions, SUM(reads) AS reads, SUM(clicks) AS clicks, SUM(spend_micros) AS spend
   FROM campaign_days WHERE day >= ${codec.param(1)} GROUP BY campaign_id ORDER BY campaign_id`;
