import type { ChargeInputs } from '../charge-rule.ts';
import type { CampaignRecord } from '../ports.ts';
import { int, params, type SqlCodec } from './sql-codec.ts';

/**
 * The `campaigns` table ⇄ CampaignRecord, for the SQLite and the PostgreSQL store alike: a
 * new campaign field is a column here (and in each backend's migration), nowhere else.
 */

/** The columns a replacement rewrites: all but the id and the times. */
const DEFINITION = [
  'advertiser',
  'title',
  'url',
  'content',
  'keywords',
  'negative_keywords',
  'countries',
  'bid_micros',
  'budget_micros',
  'daily_cap_micros',
  'start_date',
  'end_date',
  'status',
  'disclosure',
  'incentive',
] as const;

/** Named columns, never *: a prepared pg statement fails once a later migration changes the row shape. */
export const CAMPAIGN_COLUMNS = ['id', ...DEFINITION, 'created_at', 'updated_at'].join(', ');

/** A row as either driver hands it over (sql-codec.ts says which gives what). */
export interface CampaignRow {
  id: string;
  advertiser: string;
  title: string;
  url: string;
  content: string;
  keywords: unknown;
  negative_keywords: unknown;
  countries: unknown;
  bid_micros: number | string;
  budget_micros: number | string;
  daily_cap_micros: number | string | null;
  start_date: string | null;
  end_date: string | null;
  status: string;
  disclosure: string;
  incentive: unknown;
  created_at: string;
  updated_at: string;
}

export type PricingRow = Pick<CampaignRow, 'bid_micros' | 'budget_micros' | 'daily_cap_micros'>;

/** The columns a read's charge is priced from (src/store/charge-rule.ts). */
export const PRICING_COLUMNS = 'bid_micros, budget_micros, daily_cap_micros';

export const pricingFromRow = (r: PricingRow): Pick<ChargeInputs, 'bidMicros' | 'budgetMicros' | 'dailyCapMicros'> => ({
  bidMicros: int(r.bid_micros),
  budgetMicros: int(r.budget_micros),
  dailyCapMicros: r.daily_cap_micros === null ? null : int(r.daily_cap_micros),
});

export const campaignFromRow = (r: CampaignRow, codec: SqlCodec): CampaignRecord => ({
  id: r.id,
  advertiser: r.advertiser,
  title: r.title,
  url: r.url,
  content: r.content,
  keywords: codec.json(r.keywords) as string[],
  negativeKeywords: codec.json(r.negative_keywords) as string[],
  countries: codec.json(r.countries) as string[],
  ...pricingFromRow(r),
  startDate: r.start_date,
  endDate: r.end_date,
  status: r.status === 'paused' ? 'paused' : 'active',
  disclosure: r.disclosure,
  incentive: r.incentive === null ? null : (codec.json(r.incentive) as CampaignRecord['incentive']),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The DEFINITION columns' values; JSON columns as text (SQLite TEXT and pg jsonb both take it). */
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

/** The insert of a whole campaign; its values are insertCampaignValues(c). */
export const insertCampaignSql = (codec: SqlCodec): string =>
  `INSERT INTO campaigns (${CAMPAIGN_COLUMNS}) VALUES (${params(codec, DEFINITION.length + 3)})`;

export const insertCampaignValues = (c: CampaignRecord): unknown[] => [
  c.id,
  ...definition(c),
  c.createdAt,
  c.updatedAt,
];

/** The replacement of a live campaign's definition (id and created_at kept); its values are replaceCampaignValues(c). */
export const replaceCampaignSql = (codec: SqlCodec): string => {
  const set = DEFINITION.map((column, i) => `${column} = ${codec.param(i + 1)}`).join(', ');
  const n = DEFINITION.length;
  return `UPDATE campaigns SET ${set}, updated_at = ${codec.param(n + 1)} WHERE id = ${codec.param(n + 2)} AND deleted_at IS NULL`;
};

export const replaceCampaignValues = (c: CampaignRecord): unknown[] => [...definition(c), c.updatedAt, c.id];
