import { describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../src/store/ports.ts';
import { whyIneligible, type AdRequest, NO_SPEND } from '../../src/sponsored/eligibility.ts';
import { buildKeywordIndex, compileCampaign } from '../../src/sponsored/keyword-index.ts';
import { tokenize, wordForms } from '../../src/sponsored/text-match.ts';

const record = (over: Partial<CampaignRecord> = {}): CampaignRecord => ({
  id: 'cmp_a',
  advertiser: 'Acme',
  title: 'Shoes',
  url: 'https://www.shop.acme.example/shoes',
  content: 'Ad',
  keywords: ['running shoes'],
  negativeKeywords: [],
  countries: [],
  bidMicros: 100,
  budgetMicros: 1000,
  dailyCapMicros: null,
  startDate: null,
  endDate: null,
  status: 'active',
  disclosure: 'Sponsored · Acme',
  incentive: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const request = (query: string, over: Partial<AdRequest> = {}): AdRequest => ({
  words: tokenize(query).map(wordForms),
  includeDomains: [],
  excludeDomains: [],
  today: '2026-03-10',
  ...over,
});

const why = (over: Partial<CampaignRecord>, req: Partial<AdRequest> = {}, spend = NO_SPEND) =>
  whyIneligible(compileCampaign(record(over)), request('best running shoes', req), spend);

describe('eligibility, rule by rule', () => {
  it('an active, funded, untargeted campaign is eligible', () => {
    expect(why({})).toBeUndefined();
  });

  it('status: a paused campaign is not', () => {
    expect(why({ status: 'paused' })).toBe('paused');
  });

  it('dates: inclusive start and end days (UTC)', () => {
    expect(why({ startDate: '2026-03-11' })).toBe('not_started');
    expect(why({ startDate: '2026-03-10' })).toBeUndefined();
    expect(why({ endDate: '2026-03-09' })).toBe('ended');
    expect(why({ endDate: '2026-03-10' })).toBeUndefined();
  });

  it('budget: spent budget stops the campaign', () => {
    expect(why({}, {}, { totalMicros: 999, dayMicros: 0 })).toBeUndefined();
    expect(why({}, {}, { totalMicros: 1000, dayMicros: 0 })).toBe('budget_spent');
  });

  it('daily cap: spent cap stops the campaign for the rest of the UTC day', () => {
    expect(why({ dailyCapMicros: 300 }, {}, { totalMicros: 300, dayMicros: 299 })).toBeUndefined();
    expect(why({ dailyCapMicros: 300 }, {}, { totalMicros: 300, dayMicros: 300 })).toBe('daily_cap_spent');
  });

  it('country: targeted campaigns need one of their countries; untargeted ones show anywhere', () => {
    expect(why({ countries: ['US', 'CA'] }, { country: 'CA' })).toBeUndefined();
    expect(why({ countries: ['US', 'CA'] }, { country: 'DE' })).toBe('country');
    expect(why({ countries: ['US'] })).toBe('country');
    expect(why({}, { country: 'DE' })).toBeUndefined();
  });

  it('domain filters apply to the landing domain like to an organic result', () => {
    expect(why({}, { includeDomains: ['acme.example'] })).toBeUndefined();
    expect(why({}, { includeDomains: ['shop.acme.example'] })).toBeUndefined();
    expect(why({}, { includeDomains: ['other.example'] })).toBe('domain_filter');
    expect(why({}, { excludeDomains: ['acme.example'] })).toBe('domain_filter');
    expect(why({}, { includeDomains: ['acme.example'], excludeDomains: ['shop.acme.example'] })).toBe('domain_filter');
  });

  it('negative keywords keep the ad off a query (plural-insensitive)', () => {
    expect(why({ negativeKeywords: ['repair'] })).toBeUndefined();
    expect(
      whyIneligible(
        compileCampaign(record({ negativeKeywords: ['repair'] })),
        request('running shoes repairs'),
        NO_SPEND,
      ),
    ).toBe('negative_keyword');
    expect(
      whyIneligible(
        compileCampaign(record({ negativeKeywords: ['used shoes'] })),
        request('cheap used running shoes'),
        NO_SPEND,
      ),
    ).toBeUndefined();
    expect(
      whyIneligible(
        compileCampaign(record({ negativeKeywords: ['used shoes'] })),
        request('running shoes, used shoes'),
        NO_SPEND,
      ),
    ).toBe('negative_keyword');
  });
});

describe('keyword index', () => {
  const campaigns = [
    compileCampaign(record({ id: 'cmp_shoes', keywords: ['running shoes', 'trail shoe'] })),
    compileCampaign(record({ id: 'cmp_vpn', keywords: ['vpn'] })),
    compileCampaign(record({ id: 'cmp_cafe', keywords: ['café crème'] })),
  ];
  const index = buildKeywordIndex(campaigns);
  const ids = (q: string) =>
    index
      .match(tokenize(q).map(wordForms))
      .map((m) => m.campaign.record.id)
      .sort();

  it('finds campaigns whose keyword occurs, by term or phrase', () => {
    expect(ids('Best VPNs for travel')).toEqual(['cmp_vpn']);
    expect(ids('trail shoes and running shoes')).toEqual(['cmp_shoes']);
    expect(ids('CAFE CREME near me')).toEqual(['cmp_cafe']);
    expect(ids('shoes for running')).toEqual([]);
    expect(ids('weather tomorrow')).toEqual([]);
  });

  it('reports which query words a campaign covers', () => {
    const [m] = index.match(tokenize('trail shoes and running shoes').map(wordForms));
    expect([...(m?.covered ?? [])].sort()).toEqual([0, 1, 3, 4]);
  });
});
