import { describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../../src/store/ports.ts';
import {
  CAMPAIGN_COLUMNS,
  campaignFromRow,
  insertCampaignSql,
  insertCampaignValues,
  pricingFromRow,
  replaceCampaignSql,
  replaceCampaignValues,
  type CampaignRow,
} from '../../../src/store/sql/campaign-rows.ts';
import { postgresCodec, sqliteCodec } from '../../../src/store/sql/sql-codec.ts';
import { campaignRecord } from '../contract/contract-fixtures.ts';

const COLUMNS = CAMPAIGN_COLUMNS.split(', ');
const JSON_COLUMNS = new Set(['keywords', 'negative_keywords', 'countries', 'incentive']);
const BIGINT_COLUMNS = new Set(['bid_micros', 'budget_micros', 'daily_cap_micros']);

/** The row SQLite hands back for the inserted values: what was bound (JSON as text, integers as numbers). */
const sqliteRow = (values: unknown[]): CampaignRow =>
  Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]])) as unknown as CampaignRow;

/** The row pg hands back: jsonb parsed, bigint as exact decimal text. */
const postgresRow = (values: unknown[]): CampaignRow =>
  Object.fromEntries(
    COLUMNS.map((c, i) => {
      const v = values[i];
      if (v === null) return [c, null];
      if (JSON_COLUMNS.has(c)) return [c, JSON.parse(v as string)];
      if (BIGINT_COLUMNS.has(c)) return [c, String(v)];
      return [c, v];
    }),
  ) as unknown as CampaignRow;

const full: CampaignRecord = campaignRecord('cmp_full', {
  keywords: ['running shoes', 'trail'],
  countries: ['US', 'FR'],
  bidMicros: 2 ** 40,
  dailyCapMicros: 5_000,
  startDate: '2026-03-01',
  endDate: '2026-12-31',
  status: 'paused',
  incentive: { kind: 'code', code: 'SAVE10', benefit: '10% off' },
});
const minimal: CampaignRecord = campaignRecord('cmp_min', {
  keywords: [],
  negativeKeywords: [],
  countries: [],
  incentive: null,
});

describe('campaign rows', () => {
  for (const [driver, codec, rowOf] of [
    ['SQLite', sqliteCodec, sqliteRow],
    ['PostgreSQL', postgresCodec, postgresRow],
  ] as const) {
    it(`round-trips a full and a minimal campaign with ${driver}'s values`, () => {
      for (const c of [full, minimal]) expect(campaignFromRow(rowOf(insertCampaignValues(c)), codec)).toEqual(c);
    });
  }

  it('reads an unknown status as active, as both stores always did', () => {
    expect(
      campaignFromRow(sqliteRow(insertCampaignValues({ ...minimal, status: 'odd' as 'active' })), sqliteCodec).status,
    ).toBe('active');
  });

  it('reads pricing from numbers and from bigint text alike', () => {
    const want = { bidMicros: 300, budgetMicros: 1000, dailyCapMicros: null };
    expect(pricingFromRow({ bid_micros: 300, budget_micros: 1000, daily_cap_micros: null })).toEqual(want);
    expect(pricingFromRow({ bid_micros: '300', budget_micros: '1000', daily_cap_micros: '7' })).toEqual({
      ...want,
      dailyCapMicros: 7,
    });
  });

  it('numbers its placeholders in the order of its values, per driver', () => {
    expect(insertCampaignSql(sqliteCodec).match(/\?/g)).toHaveLength(insertCampaignValues(full).length);
    expect(insertCampaignSql(postgresCodec)).toContain(`$${insertCampaignValues(full).length})`);
    const replace = replaceCampaignSql(postgresCodec);
    const values = replaceCampaignValues(full);
    expect(replace).toContain(`advertiser = $1,`);
    expect(replace).toContain(`updated_at = $${values.length - 1} WHERE id = $${values.length} AND deleted_at IS NULL`);
    expect(values.slice(-2)).toEqual([full.updatedAt, full.id]);
    expect(replaceCampaignSql(sqliteCodec).match(/\?/g)).toHaveLength(values.length);
  });
});
