import { describe, expect, it } from 'vitest';
import { defined } from '../helpers/defined.ts';
import type { CampaignRecord } from '../../src/store/ports.ts';
import { relevance, runAuction, topicPositions } from '../../src/sponsored/auction.ts';
import { compileCampaign } from '../../src/sponsored/keyword-index.ts';
import { tokenize } from '../../src/sponsored/text-match.ts';

const campaign = (id: string, bidMicros: number, createdAt = '2026-01-01T00:00:00.000Z') =>
  compileCampaign({
    id,
    advertiser: id,
    title: id,
    url: `https://${id}.example/`,
    content: 'x',
    keywords: ['x'],
    negativeKeywords: [],
    countries: [],
    bidMicros,
    budgetMicros: 1e9,
    dailyCapMicros: null,
    startDate: null,
    endDate: null,
    status: 'active',
    disclosure: 'Sponsored',
    incentive: null,
    createdAt,
    updatedAt: createdAt,
  } satisfies CampaignRecord);

const ids = (bids: ReturnType<typeof runAuction>) => bids.map((b) => b.campaign.record.id);

describe('auction', () => {
  it('ranks by bid × relevance, not by bid alone', () => {
    const bids = [
      { campaign: campaign('rich-vague', 300), relevance: 0.25 }, // 75
      { campaign: campaign('cheap-exact', 100), relevance: 1 }, // 100
      { campaign: campaign('middle', 160), relevance: 0.5 }, // 80
    ];
    expect(ids(runAuction(bids, 3))).toEqual(['cheap-exact', 'middle', 'rich-vague']);
  });

  it('keeps at most the number of slots; 0 slots shows nothing', () => {
    const bids = [1, 2, 3, 4].map((i) => ({ campaign: campaign(`c${i}`, i * 100), relevance: 1 }));
    expect(ids(runAuction(bids, 2))).toEqual(['c4', 'c3']);
    expect(runAuction(bids, 0)).toEqual([]);
  });

  it('breaks ties by relevance, then by the older campaign', () => {
    const bids = [
      { campaign: campaign('young', 100, '2026-02-01T00:00:00.000Z'), relevance: 0.5 },
      { campaign: campaign('old', 100, '2026-01-01T00:00:00.000Z'), relevance: 0.5 },
      { campaign: campaign('precise', 50), relevance: 1 },
    ];
    expect(ids(runAuction(bids, 3))).toEqual(['precise', 'old', 'young']);
  });

  it('relevance is the share of topic words covered; stop words do not count', () => {
    const words = tokenize('the best running shoes for a marathon');
    const topic = topicPositions(words);
    expect(topic.map((i) => words[i])).toEqual(['best', 'running', 'shoes', 'marathon']);
    expect(relevance(new Set([2, 3]), topic)).toBe(0.5);
    expect(relevance(new Set([3]), topic)).toBe(0.25);
    expect(topicPositions(tokenize('to be or not'))).toEqual([0, 1, 2, 3]);
  });
});

describe('runAuction picks exactly what a full sort would', () => {
  it('matches sort-by-(bid × relevance, relevance, age, id) then the first k, over random bid sets', async () => {
    const { rng } = await import('../../bench/make-corpus.ts');
    const rand = rng(17);
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(rand() * 40);
      const bids = Array.from({ length: n }, (_, i) => ({
        campaign: campaign(
          `c${i}`,
          1 + Math.floor(rand() * 5) * 100,
          `2026-01-0${1 + Math.floor(rand() * 3)}T00:00:00.000Z`,
        ),
        relevance: defined([0, 1 / 3, 1 / 2, 2 / 3, 1][Math.floor(rand() * 5)], 'a relevance'),
      }));
      const k = Math.floor(rand() * 5);
      const rank = (b: (typeof bids)[number]) => b.campaign.record.bidMicros * b.relevance;
      const expected = bids
        .filter((b) => b.relevance > 0)
        .sort(
          (a, b) =>
            rank(b) - rank(a) ||
            b.relevance - a.relevance ||
            a.campaign.record.createdAt.localeCompare(b.campaign.record.createdAt) ||
            a.campaign.record.id.localeCompare(b.campaign.record.id),
        )
        .slice(0, k);
      expect(ids(runAuction(bids, k))).toEqual(ids(expected));
    }
  });
});
