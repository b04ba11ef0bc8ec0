import { describe, expect, it } from 'vitest';
import { spendFromRow, spendSql, statsFromRow, statsSql } from '../../../src/store/sql/campaign-day-rows.ts';
import { postgresCodec, sqliteCodec } from '../../../src/store/sql/sql-codec.ts';

describe('campaign day rows', () => {
  it("reads sums from SQLite's numbers and pg's numeric text alike", () => {
    const spend = { campaignId: 'cmp_a', totalMicros: 900, dayMicros: 0 };
    expect(spendFromRow({ campaign_id: 'cmp_a', total: 900, day: 0 })).toEqual(spend);
    expect(spendFromRow({ campaign_id: 'cmp_a', total: '900', day: '0' })).toEqual(spend);
    const stats = { campaignId: 'cmp_a', impressions: 5, reads: 2, clicks: 1, spendMicros: 600 };
    expect(statsFromRow({ campaign_id: 'cmp_a', impressions: 5, reads: 2, clicks: 1, spend: 600 })).toEqual(stats);
    expect(statsFromRow({ campaign_id: 'cmp_a', impressions: '5', reads: '2', clicks: '1', spend: '600' })).toEqual(
      stats,
    );
  });

  it('takes its one parameter as each driver writes it', () => {
    expect(spendSql(sqliteCodec)).toContain('day = ?');
    expect(spendSql(postgresCodec)).toContain('day = $1');
    expect(statsSql(sqliteCodec)).toContain('day >= ?');
    expect(statsSql(postgresCodec)).toContain('day >= $1');
  });
});
