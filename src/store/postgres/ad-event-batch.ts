import type pg from 'pg';
import { isoDay } from '../../domain/calendar-date.ts';
import { readChargeMicros } from '../charge-rule.ts';
import type { AdEvent, Charge, ImpressionRecord } from '../ports.ts';
import { IMPRESSION_COLUMNS, putImpression } from '../sql/impression-rows.ts';
import { dayCounts, bumpDays, type DayCounts } from './campaign-days.ts';
import { lockPricing, type Spent } from './campaign-spend.ts';

type Act = Exclude<AdEvent, { kind: 'impression' }>;

interface Logged {
  kind: Act['kind'];
  recId: string;
  campaignId: string;
  at: number;
  charge: number;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number): string => isoDay(new Date(Math.floor(ms / DAY_MS) * DAY_MS));
const byRecId = (a: ImpressionRecord, b: ImpressionRecord): number =>
  a.recId < b.recId ? -1 : a.recId > b.recId ? 1 : 0;

/**
 * Writes one batch inside the caller's transaction, with the SQLite adapter's semantics and
 * a fixed number of statements whatever its size. Every lock is taken in one global order
 * (impressions inserted by rec_id, impressions updated by rec_id, campaigns by id, day
 * counters by campaign and day), so batches of many replicas queue instead of deadlocking.
 */
export async function writeBatch(c: pg.ClientBase, events: readonly AdEvent[]): Promise<Charge[]> {
  const counts = dayCounts();
  await insertImpressions(c, events, counts);
  const charges = await recordActs(c, events, counts);
  await bumpDays(c, counts);
  return charges;
}

/** One multi-row insert; RETURNING names the rows inserted, so each impression is counted once. */
async function insertImpressions(c: pg.ClientBase, events: readonly AdEvent[], counts: DayCounts): Promise<void> {
  const rows: ImpressionRecord[] = [];
  for (const e of events) if (e.kind === 'impression') rows.push(e.impression);
  if (rows.length === 0) return;
  // A stable sort: of a rec_id repeated in the batch, the first is the one inserted.
  rows.sort(byRecId);
  const { rows: inserted } = await c.query<{ campaign_id: string; shown_at: string }>({
    name: 'scout_ad_impressions',
    // The element types of unnest's arrays follow IMPRESSION_COLUMNS, one a column.
    text: `INSERT INTO impressions (${IMPRESSION_COLUMNS.join(', ')})
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::int[])
           ON CONFLICT (rec_id) DO NOTHING RETURNING campaign_id, shown_at`,
    values: byColumn(rows),
  });
  for (const r of inserted) counts.of(r.campaign_id, dayOf(Number(r.shown_at))).impressions++;
}

/** The rows' IMPRESSION_COLUMNS values as one array per column, as unnest takes them. */
function byColumn(rows: readonly ImpressionRecord[]): unknown[][] {
  const columns = IMPRESSION_COLUMNS.map(() => new Array<unknown>(rows.length));
  const row = new Array<unknown>(IMPRESSION_COLUMNS.length);
  rows.forEach((i, r) => {
    putImpression(row, 0, i);
    columns.forEach((column, k) => {
      column[r] = row[k];
    });
  });
  return columns;
}

/**
 * Reads and clicks, in batch order, after every impression of the batch is in. The
 * impressions they name are locked first: a rec_id read on two replicas at once is first
 * on exactly one of them. A first read is charged (src/store/charge-rule.ts) with its
 * campaign's spend read under the campaign's row lock.
 */
async function recordActs(c: pg.ClientBase, events: readonly AdEvent[], counts: DayCounts): Promise<Charge[]> {
  const acts = events.filter((e): e is Act => e.kind !== 'impression');
  if (acts.length === 0) return [];
  const { rows } = await c.query<{ rec_id: string; read: boolean; clicked: boolean }>({
    name: 'scout_ad_lock_impressions',
    text: `SELECT rec_id, read_at IS NOT NULL AS read, clicked_at IS NOT NULL AS clicked
           FROM impressions WHERE rec_id = ANY($1::text[]) ORDER BY rec_id FOR UPDATE`,
    values: [[...new Set(acts.map((a) => a.recId))]],
  });
  const known = new Map(rows.map((r) => [r.rec_id, r]));
  const changed = new Map<string, { readAt: number | null; clickedAt: number | null; charge: number }>();
  const change = (recId: string) => {
    let u = changed.get(recId);
    if (!u) changed.set(recId, (u = { readAt: null, clickedAt: null, charge: 0 }));
    return u;
  };
  const log: Logged[] = [];
  const firstReads: Logged[] = [];
  for (const e of acts) {
    const i = known.get(e.recId);
    const entry: Logged = { kind: e.kind, recId: e.recId, campaignId: e.campaignId, at: e.at, charge: 0 };
    if (e.kind === 'click') {
      // Only the first follow of a rec_id is stored and counted (unique clicks).
      if (!i || i.clicked) continue;
      i.clicked = true;
      change(e.recId).clickedAt = e.at;
      counts.of(e.campaignId, dayOf(e.at)).clicks++;
    } else if (i && !i.read) {
      i.read = true;
      change(e.recId).readAt = e.at;
      firstReads.push(entry);
    }
    log.push(entry);
  }

  const charges: Charge[] = [];
  if (firstReads.length > 0) {
    const days = [...new Set(firstReads.map((r) => dayOf(r.at)))];
    const priced = await lockPricing(c, [...new Set(firstReads.map((r) => r.campaignId))], days);
    for (const r of firstReads) {
      const day = dayOf(r.at);
      const p = priced.get(r.campaignId);
      const micros = p
        ? readChargeMicros({ ...p.pricing, spentMicros: p.spent.total, spentDayMicros: p.spent.days.get(day) ?? 0 })
        : 0;
      if (p) spend(p.spent, day, micros);
      const n = counts.of(r.campaignId, day);
      n.reads++;
      n.spend += micros;
      r.charge = micros;
      change(r.recId).charge = micros;
      if (micros > 0) charges.push({ campaignId: r.campaignId, day, micros });
    }
  }

  if (changed.size > 0) {
    const u = [...changed];
    await c.query({
      name: 'scout_ad_mark_impressions',
      text: `UPDATE impressions i SET read_at = COALESCE(v.read_at, i.read_at), clicked_at = COALESCE(v.clicked_at, i.clicked_at),
               charge_micros = i.charge_micros + v.charge
             FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[]) AS v(rec_id, read_at, clicked_at, charge)
             WHERE i.rec_id = v.rec_id`,
      values: [
        u.map(([id]) => id),
        u.map(([, x]) => x.readAt),
        u.map(([, x]) => x.clickedAt),
        u.map(([, x]) => x.charge),
      ],
    });
  }
  if (log.length === 0) return charges;
  await c.query({
    name: 'scout_ad_log_events',
    text: `INSERT INTO events (kind, rec_id, campaign_id, at, charge_micros)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])`,
    values: [
      log.map((l) => l.kind),
      log.map((l) => l.recId),
      log.map((l) => l.campaignId),
      log.map((l) => l.at),
      log.map((l) => l.charge),
    ],
  });
  return charges;
}

/** Counts a charge into the spend read at the start of the batch, so the next read's caps see it. */
function spend(s: Spent, day: string, micros: number): void {
  s.total += micros;
  s.days.set(day, (s.days.get(day) ?? 0) + micros);
}
