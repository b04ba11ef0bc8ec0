import { domainAllowed } from '../domain/domains.ts';
import type { CompiledCampaign } from './keyword-index.ts';
import { findPhrase } from './text-match.ts';

/** What the eligibility rules need to know about one search. */
export interface AdRequest {
  /** The query's words, each with its plural forms (text-match.ts). */
  words: string[][];
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  includeDomains: readonly string[];
  excludeDomains: readonly string[];
  /** Today in UTC, YYYY-MM-DD. */
  today: string;
}

export interface Spend {
  totalMicros: number;
  /** Spend of `AdRequest.today`. */
  dayMicros: number;
}

export type Ineligibility =
  | 'paused'
  | 'not_started'
  | 'ended'
  | 'budget_spent'
  | 'daily_cap_spent'
  | 'country'
  | 'domain_filter'
  | 'negative_keyword';

export const NO_SPEND: Spend = { totalMicros: 0, dayMicros: 0 };

/**
 * Why a campaign whose keyword matched may not show, or undefined when it may
 * (docs/sponsored.md "Eligibility"). Cheap checks first: this runs on every candidate.
 */
export function whyIneligible(c: CompiledCampaign, req: AdRequest, spend: Spend): Ineligibility | undefined {
  const r = c.record;
  if (r.status !== 'active') return 'paused';
  if (r.startDate !== null && req.today < r.startDate) return 'not_started';
  if (r.endDate !== null && req.today > r.endDate) return 'ended';
  if (spend.totalMicros >= r.budgetMicros) return 'budget_spent';
  if (r.dailyCapMicros !== null && spend.dayMicros >= r.dailyCapMicros) return 'daily_cap_spent';
  // A targeted campaign is a promise to the advertiser: without a country it does not show.
  if (c.countries.size > 0 && (req.country === undefined || !c.countries.has(req.country))) return 'country';
  if (!domainAllowed(c.landingDomain, req.includeDomains, req.excludeDomains)) return 'domain_filter';
  if (c.negatives.some((p) => findPhrase(p, req.words) !== undefined)) return 'negative_keyword';
  return undefined;
}
