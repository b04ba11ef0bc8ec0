import type pg from 'pg';
import type { ChargeInputs } from '../charge-rule.ts';
import { PRICING_COLUMNS, pricingFromRow, type PricingRow } from '../sql/campaign-rows.ts';

export interface Spent {
  /** All time. */
  total: number;
  /** By UTC day, for the days asked for. */
  days: Map<string, number>;
}

export interface Priced {
  pricing: Pick<ChargeInputs, 'bidMicros' | 'budgetMicros' | 'dailyCapMicros'>;
  spent: Spent;
}

/**
 * Locks the rows of `campaignIds` (deleted campaigns included: an impression shown before
 * the delete is still paid for) in id order, then reads their spend, all time and on
 * `days`. The spend is read by a second statement on purpose: under READ COMMITTED it takes
 * its snapshot after the locks are held, so it sees every charge committed by whoever held
 * them before; a subquery of the locking statement would see the spend from before the
 * wait. Campaigns the store does not know are missing from the answer (their reads are free).
 */
export async function lockPricing(
  c: pg.ClientBase,
  campaignIds: string[],
  days: string[],
): Promise<Map<string, Priced>> {
  const { rows } = await c.query<PricingRow & { id: string }>({
    name: 'scout_ad_lock_campaigns',
    text: `SELECT id, ${PRICING_COLUMNS} FROM campaigns WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    values: [campaignIds],
  });
  const priced = new Map<string, Priced>();
  if (rows.length === 0) return priced;
  for (const r of rows) {
    priced.set(r.id, { pricing: pricingFromRow(r), spent: { total: 0, days: new Map() } });
  }
  const { rows: spent } = await c.query<{ campaign_id: string; total: string; days: Record<string, number> }>({
    name: 'scout_ad_campaign_spend',
    text: `SELECT campaign_id, SUM(spend_micros) AS total,
             COALESCE(json_object_agg(day, spend_micros) FILTER (WHERE day = ANY($2::text[])), '{}') AS days
           FROM campaign_days WHERE campaign_id = ANY($1::text[]) GROUP BY campaign_id`,
    values: [[...priced.keys()], days],
  });
  for (const s of spent) {
    const p = priced.get(s.campaign_id)!;
    p.spent.total = Number(s.total);
    for (const [day, micros] of Object.entries(s.days)) p.spent.days.set(day, Number(micros));
  }
  return priced;
}
