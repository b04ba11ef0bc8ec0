import type pg from 'pg';
import type { AdEventStore } from '../ports.ts';
import {
  spendFromRow,
  spendSql,
  statsFromRow,
  statsSql,
  type SpendRow,
  type StatsRow,
} from '../sql/campaign-day-rows.ts';
import { IMPRESSION_COLUMNS, impressionFromRow, type ImpressionRow } from '../sql/impression-rows.ts';
import { postgresCodec } from '../sql/sql-codec.ts';
import { writeBatch } from './ad-event-batch.ts';
import { inTransaction } from './in-transaction.ts';

const FIND_IMPRESSION = `SELECT ${IMPRESSION_COLUMNS.join(', ')} FROM impressions WHERE rec_id = $1`;
const SPEND = spendSql(postgresCodec);
const STATS = statsSql(postgresCodec);

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
        text: FIND_IMPRESSION,
        values: [recId],
      });
      return rows[0] && impressionFromRow(rows[0]);
    },
    async spend(day) {
      const { rows } = await pool.query<SpendRow>(SPEND, [day]);
      return rows.map(spendFromRow);
    },
    async stats(sinceDay) {
      const { rows } = await pool.query<StatsRow>(STATS, [sinceDay ?? '']);
      return rows.map(statsFromRow);
    },
  };
}
