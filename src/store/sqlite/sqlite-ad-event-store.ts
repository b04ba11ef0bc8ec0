import { isoDay } from '../../domain/calendar-date.ts';
import { readChargeMicros } from '../charge-rule.ts';
import type { AdEvent, AdEventStore, Charge, ImpressionRecord } from '../ports.ts';
import {
  spendFromRow,
  spendSql,
  statsFromRow,
  statsSql,
  type SpendRow,
  type StatsRow,
} from '../sql/campaign-day-rows.ts';
import { PRICING_COLUMNS, pricingFromRow, type PricingRow } from '../sql/campaign-rows.ts';
import { IMPRESSION_COLUMNS, impressionFromRow, putImpression, type ImpressionRow } from '../sql/impression-rows.ts';
import { params, sqliteCodec } from '../sql/sql-codec.ts';
import type { SqliteDatabase } from './open-database.ts';

type Counter = 'impressions' | 'reads' | 'clicks';

const DAY_MS = 86_400_000;
/** Impressions per multi-row INSERT (6 parameters each, far below SQLite's 32,766). */
const IMPRESSION_ROWS = 50;
const WIDTH = IMPRESSION_COLUMNS.length;
let memo = { n: Number.NaN, day: '' };
/** UTC day of an epoch-ms time; memoised, since a batch's events nearly all share one day. */
const dayOf = (ms: number): string => {
  const n = Math.floor(ms / DAY_MS);
  if (n !== memo.n) memo = { n, day: isoDay(new Date(n * DAY_MS)) };
  return memo.day;
};

/**
 * Impressions, reads, clicks and spend in sponsored.db; one transaction per written batch.
 * Counts go to per-campaign, per-day counters (one upsert per campaign and day of a batch),
 * so reports and budget checks never scan events and a batch writes few pages.
 */
export function createSqliteAdEventStore(db: SqliteDatabase): AdEventStore {
  const IMPRESSION_SQL = `INSERT OR IGNORE INTO impressions (${IMPRESSION_COLUMNS.join(', ')}) VALUES `;
  const ROW = `(${params(sqliteCodec, WIDTH)})`;
  const insertImpression = db.prepare(`${IMPRESSION_SQL}${ROW}`);
  // Impressions come by the hundred per batch: one statement for IMPRESSION_ROWS of them
  // costs a fraction of as many single-row statements (the per-statement overhead was the
  // larger part of the sponsored stage's cost per search).
  // RETURNING names the rows actually inserted (OR IGNORE skips a rec_id already there, or
  // repeated in the batch), so each impression is counted once without asking first.
  const insertImpressions = db
    .prepare(`${IMPRESSION_SQL}${Array(IMPRESSION_ROWS).fill(ROW).join(', ')} RETURNING rec_id`)
    .pluck();

  const markRead = db.prepare('UPDATE impressions SET read_at = ? WHERE rec_id = ? AND read_at IS NULL');
  const markClick = db.prepare('UPDATE impressions SET clicked_at = ? WHERE rec_id = ? AND clicked_at IS NULL');
  const setCharge = db.prepare('UPDATE impressions SET charge_micros = ? WHERE rec_id = ?');
  // Deleted campaigns included: an impression delivered before the delete is still paid for.
  const pricing = db.prepare<[string], PricingRow>(`SELECT ${PRICING_COLUMNS} FROM campaigns WHERE id = ?`);
  const spent = db.prepare<[string, string], { total: number; day: number }>(
    'SELECT COALESCE(SUM(spend_micros), 0) AS total, COALESCE(SUM(CASE WHEN day = ? THEN spend_micros END), 0) AS day FROM campaign_days WHERE campaign_id = ?',
  );
  const bump = db.prepare(
    `INSERT INTO campaign_days (campaign_id, day, impressions, reads, clicks, spend_micros) VALUES (@id, @day, @impressions, @reads, @clicks, @spend)
     ON CONFLICT (campaign_id, day) DO UPDATE SET impressions = impressions + excluded.impressions, reads = reads + excluded.reads,
       clicks = clicks + excluded.clicks, spend_micros = spend_micros + excluded.spend_micros`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO events (kind, rec_id, campaign_id, at, charge_micros) VALUES (?, ?, ?, ?, ?)',
  );
  const findImpression = db.prepare<[string], ImpressionRow>(
    `SELECT ${IMPRESSION_COLUMNS.join(', ')} FROM impressions WHERE rec_id = ?`,
  );
  const spendOf = db.prepare<[string], SpendRow>(spendSql(sqliteCodec));
  const statsSince = db.prepare<[string], StatsRow>(statsSql(sqliteCodec));

  /** Charge of a first read (src/store/charge-rule.ts), inside the batch's transaction. */
  function charge(campaignId: string, day: string): number {
    const p = pricing.get(campaignId);
    if (!p) return 0;
    const s = spent.get(day, campaignId) ?? { total: 0, day: 0 };
    return readChargeMicros({ ...pricingFromRow(p), spentMicros: s.total, spentDayMicros: s.day });
  }

  const writeBatch = db.transaction((events: readonly AdEvent[]): Charge[] => {
    const charges: Charge[] = [];
    const counts = new Map<string, { id: string; day: string; impressions: number; clicks: number }>();
    const count = (id: string, day: string, what: Exclude<Counter, 'reads'>) => {
      const key = `${id}\u0000${day}`;
      let c = counts.get(key);
      if (!c) counts.set(key, (c = { id, day, impressions: 0, clicks: 0 }));
      c[what]++;
    };
    const impressions: ImpressionRecord[] = [];
    for (const e of events) if (e.kind === 'impression') impressions.push(e.impression);
    const values: unknown[] = new Array(IMPRESSION_ROWS * WIDTH);
    let k = 0;
    for (; k + IMPRESSION_ROWS <= impressions.length; k += IMPRESSION_ROWS) {
      const chunk = impressions.slice(k, k + IMPRESSION_ROWS);
      for (const [j, i] of chunk.entries()) putImpression(values, j * WIDTH, i);
      const inserted = new Set(insertImpressions.all(values) as string[]);
      for (const i of chunk) {
        if (inserted.delete(i.recId)) count(i.campaignId, dayOf(i.shownAt), 'impressions');
      }
    }
    for (const i of impressions.slice(k)) {
      const row: unknown[] = [];
      putImpression(row, 0, i);
      if (insertImpression.run(row).changes > 0) count(i.campaignId, dayOf(i.shownAt), 'impressions');
    }
    // Then reads and clicks, in order (their impressions are in the table by now).
    for (const e of events) {
      if (e.kind === 'impression') continue;
      if (e.kind === 'click') {
        if (markClick.run(e.at, e.recId).changes > 0) {
          insertEvent.run('click', e.recId, e.campaignId, e.at, 0);
          count(e.campaignId, dayOf(e.at), 'clicks');
        }
      } else {
        const day = dayOf(e.at);
        const first = markRead.run(e.at, e.recId).changes > 0;
        // Charged at once (not batched): the next read's cap check must see this spend.
        const micros = first ? charge(e.campaignId, day) : 0;
        if (first) bump.run({ id: e.campaignId, day, impressions: 0, reads: 1, clicks: 0, spend: micros });
        if (micros > 0) {
          setCharge.run(micros, e.recId);
          charges.push({ campaignId: e.campaignId, day, micros });
        }
        insertEvent.run('read', e.recId, e.campaignId, e.at, micros);
      }
    }
    for (const c of counts.values())
      bump.run({ id: c.id, day: c.day, impressions: c.impressions, reads: 0, clicks: c.clicks, spend: 0 });
    return charges;
  });

  return {
    async write(events) {
      return events.length === 0 ? [] : writeBatch(events);
    },
    async findImpression(recId) {
      const row = findImpression.get(recId);
      return row && impressionFromRow(row);
    },
    async spend(day) {
      return spendOf.all(day).map(spendFromRow);
    },
    async stats(sinceDay) {
      return statsSince.all(sinceDay ?? '').map(statsFromRow);
    },
  };
}
