import type { CampaignRecord, CampaignStore } from '../ports.ts';
import type { SqliteDatabase } from './open-database.ts';

interface Row {
  id: string;
  advertiser: string;
  title: string;
  url: string;
  content: string;
  keywords: string;
  negative_keywords: string;
  countries: string;
  bid_micros: number;
  budget_micros: number;
  daily_cap_micros: number | null;
  start_date: string | null;
  end_date: string | null;
  status: string;
  disclosure: string;
  incentive: string | null;
  created_at: string;
  updated_at: string;
}

const toRecord = (r: Row): CampaignRecord => ({
  id: r.id,
  advertiser: r.advertiser,
  title: r.title,
  url: r.url,
  content: r.content,
  keywords: JSON.parse(r.keywords) as string[],
  negativeKeywords: JSON.parse(r.negative_keywords) as string[],
  countries: JSON.parse(r.countries) as string[],
  bidMicros: r.bid_micros,
  budgetMicros: r.budget_micros,
  dailyCapMicros: r.daily_cap_micros,
  startDate: r.start_date,
  endDate: r.end_date,
  status: r.status === 'paused' ? 'paused' : 'active',
  disclosure: r.disclosure,
  incentive: r.incentive === null ? null : (JSON.parse(r.incentive) as CampaignRecord['incentive']),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toParams = (c: CampaignRecord) => ({
  id: c.id,
  advertiser: c.advertiser,
  title: c.title,
  url: c.url,
  content: c.content,
  keywords: JSON.stringify(c.keywords),
  negative_keywords: JSON.stringify(c.negativeKeywords),
  countries: JSON.stringify(c.countries),
  bid_micros: c.bidMicros,
  budget_micros: c.budgetMicros,
  daily_cap_micros: c.dailyCapMicros,
  start_date: c.startDate,
  end_date: c.endDate,
  status: c.status,
  disclosure: c.disclosure,
  incentive: c.incentive === null ? null : JSON.stringify(c.incentive),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

const FIELDS =
  'advertiser, title, url, content, keywords, negative_keywords, countries, bid_micros, budget_micros, daily_cap_micros, start_date, end_date, status, disclosure, incentive';
const assignments = FIELDS.split(', ')
  .map((f) => `${f} = @${f}`)
  .join(', ');
const values = FIELDS.split(', ')
  .map((f) => `@${f}`)
  .join(', ');

/** Campaigns in sponsored.db; deleted campaigns keep their row (deleted_at) for reports and charges. */
export function createSqliteCampaignStore(db: SqliteDatabase): CampaignStore {
  const insert = db.prepare(`INSERT INTO campaigns (id, ${FIELDS}, created_at, updated_at) VALUES (@id, ${values}, @created_at, @updated_at)`);
  const replace = db.prepare(`UPDATE campaigns SET ${assignments}, updated_at = @updated_at WHERE id = @id AND deleted_at IS NULL`);
  const setStatus = db.prepare('UPDATE campaigns SET status = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL');
  const remove = db.prepare('UPDATE campaigns SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL');
  const get = db.prepare<[string], Row>('SELECT * FROM campaigns WHERE id = ? AND deleted_at IS NULL');
  const list = db.prepare<[], Row>('SELECT * FROM campaigns WHERE deleted_at IS NULL ORDER BY created_at, id');
  const version = db.prepare<[], { version: number }>('SELECT version FROM campaign_version WHERE id = 1');
  return {
    async insert(c) {
      insert.run(toParams(c));
    },
    async replace(c) {
      return replace.run(toParams(c)).changes > 0;
    },
    async setStatus(id, status, at) {
      if (setStatus.run(status, at, id).changes === 0) return undefined;
      const row = get.get(id);
      return row && toRecord(row);
    },
    async delete(id, at) {
      return remove.run(at, at, id).changes > 0;
    },
    async get(id) {
      const row = get.get(id);
      return row && toRecord(row);
    },
    async list() {
      return list.all().map(toRecord);
    },
    async version() {
      return version.get()?.version ?? 0;
    },
  };
}
