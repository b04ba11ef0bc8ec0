import type { Campaign, CampaignReportRow } from '../schemas/campaign.ts';
import type { CampaignRecord, CampaignStats } from '../store/ports.ts';

/** A stored campaign in the admin API's shape (snake_case, like the campaign file). */
export function toCampaignView(r: CampaignRecord): Campaign {
  return {
    id: r.id,
    advertiser: r.advertiser,
    title: r.title,
    url: r.url,
    content: r.content,
    keywords: r.keywords,
    negative_keywords: r.negativeKeywords,
    countries: r.countries,
    bid_micros: r.bidMicros,
    budget_micros: r.budgetMicros,
    daily_cap_micros: r.dailyCapMicros,
    start_date: r.startDate,
    end_date: r.endDate,
    status: r.status,
    disclosure: r.disclosure,
    incentive: r.incentive,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** One report line: counts of the period, remaining budget of all time. */
export function toReportRow(
  r: CampaignRecord,
  stats: CampaignStats | undefined,
  totalSpendMicros: number,
): CampaignReportRow {
  const impressions = stats?.impressions ?? 0;
  const reads = stats?.reads ?? 0;
  return {
    id: r.id,
    advertiser: r.advertiser,
    title: r.title,
    status: r.status,
    impressions,
    agent_reads: reads,
    clicks: stats?.clicks ?? 0,
    spend_micros: stats?.spendMicros ?? 0,
    read_rate: impressions === 0 ? 0 : Math.round((reads / impressions) * 10_000) / 10_000,
    budget_micros: r.budgetMicros,
    remaining_micros: Math.max(0, r.budgetMicros - totalSpendMicros),
  };
}
