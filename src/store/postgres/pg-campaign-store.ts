import type pg from 'pg';
import type { CampaignRecord, CampaignStore } from '../ports.ts';

interface Row {
  id: string;
  advertiser: string;
  title: string;
  url: string;
  content: string;
  keywords: string[];
  negative_keywords: string[];
  countries: string[];
  bid_micros: string;
  budget_micros: string;
  daily_cap_micros: string | null;
  start_date: string | null;
  end_date: string | null;
  status: string;
  disclosure: string;
  incentive: CampaignRecord['incentive'];
  created_at: string;
  updated_at: string;
}

/** Bigint columns come back as strings (exact); micros stay far below 2^53. */
const toRecord = (r: Row): CampaignRecord => ({
  id: r.id,
  advertiser: r.advertiser,
  title: r.title,
  url: r.url,
  content: r.content,
  keywords: r.keywords,
  negativeKeywords: r.negative_keywords,
  countries: r.countries,
  bidMicros: Number(r.bid_micros),
  budgetMicros: Number(r.budget_micros),
  dailyCapMicros: r.daily_cap_micros === null ? null : Number(r.daily_cap_micros),
  startDate: r.start_date,
  endDate: r.end_date,
  status: r.status === 'paused' ? 'paused' : 'active',
  disclosure: r.disclosure,
  incentive: r.incentive,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** $2.. of a campaign's definition, in FIELDS order; jsonb columns take JSON text. */
const definition = (c: CampaignRecord): unknown[] => [
  c.advertiser,
  c.title,
  c.url,
  c.content,
  JSON.stringify(c.keywords),
  JSON.stringify(c.negativeKeywords),
  JSON.stringify(c.countries),
  c.bidMicros,
  c.budgetMicros,
  c.dailyCapMicros,
  c.startDate,
  c.endDate,
  c.status,
  c.disclosure,
  c.incentive === null ? null : JSON.stringify(c.incentive),
];

const FIELDS = ['advertiser', 'title', 'url', 'content', 'keywords', 'negative_keywords', 'countries', 'bid_micros', 'budget_micros', 'daily_cap_micros', 'start_date', 'end_date', 'status', 'disclosure', 'incentive'];
/** Named columns, never *: a prepared statement fails once a later migration changes the row shape. */
const COLUMNS = ['id', ...FIELDS, 'created_at', 'updated_at'].join(', ');
// $1 is the id; the definition follows; then the times.
const values = FIELDS.map((_, i) => `$${i + 2}`).join(', ');
const assignments = FIELDS.map((f, i) => `${f} = $${i + 2}`).join(', ');
const at = FIELDS.length + 2;

/**
 * Campaigns in PostgreSQL; deleted campaigns keep their row (deleted_at) for reports and
 * charges. version() reads a counter a trigger bumps in the same transaction as every
 * change to the table, whoever makes it (migration 001).
 */
export function createPostgresCampaignStore(pool: pg.Pool): CampaignStore {
  const one = async (text: string, params: unknown[]): Promise<CampaignRecord | undefined> => {
    const { rows } = await pool.query<Row>(text, params);
    return rows[0] && toRecord(rows[0]);
  };
  return {
    async insert(c) {
      await pool.query(`INSERT INTO campaigns (id, ${FIELDS.join(', ')}, created_at, updated_at) VALUES ($1, ${values}, $${at}, $${at + 1})`, [
        c.id,
        ...definition(c),
        c.createdAt,
        c.updatedAt,
      ]);
    },
    async replace(c) {
      const { rowCount } = await pool.query(`UPDATE campaigns SET ${assignments}, updated_at = $${at} WHERE id = $1 AND deleted_at IS NULL`, [c.id, ...definition(c), c.updatedAt]);
      return (rowCount ?? 0) > 0;
    },
    async setStatus(id, status, when) {
      return one(`UPDATE campaigns SET status = $2, updated_at = $3 WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`, [id, status, when]);
    },
    async delete(id, when) {
      const { rowCount } = await pool.query('UPDATE campaigns SET deleted_at = $2, updated_at = $2 WHERE id = $1 AND deleted_at IS NULL', [id, when]);
      return (rowCount ?? 0) > 0;
    },
    async get(id) {
      return one(`SELECT ${COLUMNS} FROM campaigns WHERE id = $1 AND deleted_at IS NULL`, [id]);
    },
    async list() {
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM campaigns WHERE deleted_at IS NULL ORDER BY created_at, id`);
      return rows.map(toRecord);
    },
    async version() {
      const { rows } = await pool.query<{ version: string }>({ name: 'scout_campaign_version', text: 'SELECT version FROM campaign_version WHERE id = 1' });
      return rows[0] ? Number(rows[0].version) : 0;
    },
  };
}
