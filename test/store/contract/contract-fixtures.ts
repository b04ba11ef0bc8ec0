import { randomBytes } from 'node:crypto';
import type { AdEvent, CampaignRecord } from '../../../src/store/ports.ts';

/**
 * Shared by the contract suites. Every test names its rows with a fresh tag, so a backend's
 * factory may hand out one shared store (a database schema, a Redis prefix) as well as a
 * fresh one: no test sees another's ids, keys or periods.
 */
export const newTag = (): string => randomBytes(6).toString('hex');

export const campaignRecord = (id: string, over: Partial<CampaignRecord> = {}): CampaignRecord => ({
  id,
  advertiser: 'Acme',
  title: 'Shoes',
  url: 'https://acme.example/',
  content: 'Ad text',
  keywords: ['running shoes'],
  negativeKeywords: ['free'],
  countries: ['US'],
  bidMicros: 300,
  budgetMicros: 1000,
  dailyCapMicros: null,
  startDate: null,
  endDate: null,
  status: 'active',
  disclosure: 'Sponsored · Acme',
  incentive: { kind: 'trial', benefit: '30 days free' },
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  ...over,
});

/** Noon UTC on 2026-03-10: reads an hour later fall on the same UTC day. */
export const T0 = Date.parse('2026-03-10T12:00:00Z');
export const DAY_MS = 86_400_000;

export const impression = (recId: string, campaignId: string, shownAt = T0): AdEvent => ({
  kind: 'impression',
  impression: { recId, campaignId, landingUrl: 'https://acme.example/', shownAt, requestId: 'r1', position: 1 },
});
export const read = (recId: string, campaignId: string, at = T0 + 1000): AdEvent => ({
  kind: 'read',
  recId,
  campaignId,
  at,
});
export const click = (recId: string, campaignId: string, at = T0 + 2000): AdEvent => ({
  kind: 'click',
  recId,
  campaignId,
  at,
});

/** The rows of `ids` only, by campaign id: other tests' campaigns may share the store. */
export function statsOf<T extends { campaignId: string }>(rows: readonly T[], ...ids: string[]): T[] {
  return rows.filter((r) => ids.includes(r.campaignId)).sort((a, b) => (a.campaignId < b.campaignId ? -1 : 1));
}
