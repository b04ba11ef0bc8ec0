import type pg from 'pg';
import type { AdEventStore, ImpressionRecord } from '../ports.ts';
import { writeBatch } from './ad-event-batch.ts';
import { inTransaction } from './in-transaction.ts';

interface ImpressionRow {
  rec_id: string;
  campaign_id: string;
  landing_url: string;
  shown_at: string;
  request_id: string;
  position: number;
}

const toImpression = (r: ImpressionRow): ImpressionRecord => ({
  recId: r.rec_id,
  campaignId: r.campaign_id,
  landingUrl: r.landing_url,
  shownAt: Number(r.shown_at),
  requestId: r.request_id,
  position: r.position,
});

/**
 * Impressions, reads, clicks and spend in PostgreSQL, shared by every replica; one
 * transaction per written batch (ad-event-batch.ts), run again when PostgreSQL picks it as
 * a deadlock victim. Reports read the per-campaign, per-day counters, never the events.
 */
export function createPostgresAdEventStore(pool: pg.Pool): AdEventStore {
  return {
    async write(events) {
      return events.length === 0 ? [] : inTransaction(pool, (c) => writeBatch(c, events));
    },
    async findImpression(recId) {
      const { rows } = await pool.query<ImpressionRow>({
        name: 'scout_ad_find_impression',
        text: 'SELECT rec_id, campaign_id, landing_url, shown_at, request_id, position FROM impressions WHERE rec_id = $1',
        values: [recId],
      });
      return rows[0] && toImpression(rows[0]);
    },
    async spend(day) {
      const { rows } = await pool.query<{ campaign_id: string; total: string; day: string }>(
        `SELECT campaign_id, SUM(spend_micros) AS total, COALESCE(SUM(spend_micros) FILTER (WHERE day = $1), 0) AS day
         FROM campaign_days GROUP BY campaign_id HAVING SUM(spend_micros) > 0 ORDER BY campaign_id`,
        [day],
      );
      return rows.map((r) => ({ campaignId: r.campaign_id, totalMicros: Number(r.total), dayMicros: Number(r.day) }));
    },
    async stats(sinceDay) {
      const { rows } = await pool.query<{ campaign_id: string; impressions: string; reads: string; clicks: string; spend: string }>(
        `SELECT campaign_id, SUM(impressions) AS impressions, SUM(reads) AS reads, SUM(clicks) AS clicks, SUM(spend_micros) AS spend
         FROM campaign_days WHERE day >= $1 GROUP BY campaign_id ORDER BY campaign_id`,
        [sinceDay ?? ''],
      );
      return rows.map((r) => ({
        campaignId: r.campaign_id,
        impressions: Number(r.impressions),
        reads: Number(r.reads),
        clicks: Number(r.clicks),
        spendMicros: Number(r.spend),
      }));
    },
  };
}
