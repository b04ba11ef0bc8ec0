import { describe, expect, it } from 'vitest';
import { searxngPlan } from '../../src/compat/searxng-request.ts';
import { emptySearxngBody, searxngBody } from '../../src/compat/searxng-response.ts';
import type { Result, SearchResponse } from '../../src/schemas/search.ts';
import { SearxngResponse } from '../../src/schemas/searxng.ts';
import { expectShape } from '../helpers/strict-schemas.ts';

const organic = (n: number, over: Partial<Result> = {}): Result => ({
  type: 'organic',
  position: n,
  title: `Organic ${n}`,
  url: `https://o${n}.example/`,
  domain: `o${n}.example`,
  content: `Text ${n}.`,
  ...over,
});

const ad = (n: number, over: Partial<Result> = {}): Result => ({
  type: 'sponsored',
  position: n,
  title: `Ad ${n}`,
  url: `https://scout.test/v1/r/rec_${n}`,
  domain: `ad${n}.example`,
  content: `Buy ${n}.`,
  disclosure: `Sponsored · Advertiser ${n}`,
  rec_id: `rec_${n}`,
  ...over,
});

const outcome = (results: Result[], providers: string[], advertisers: string[] = []) => {
  const body: SearchResponse = {
    request_id: 'r',
    query: 'q',
    results,
    response_time_ms: 1,
    meta: { sponsored_count: advertisers.length, result_count: results.length },
  };
  return { body, providers, advertisers };
};

const scores = (b: SearxngResponse) => b.results.map((r) => r.score);

describe('a Scout search → a SearXNG answer', () => {
  it('keeps the organic order, scores strictly descending, and names the provider that answered', () => {
    const body = searxngBody(
      searxngPlan({ q: 'q' }),
      outcome([organic(1, { published_date: '2026-11-27' }), organic(2), organic(3)], ['local']),
    );
    expectShape(SearxngResponse, body);
    expect(body).toEqual({
      query: 'q',
      number_of_results: 3,
      results: [
        {
          url: 'https://o1.example/',
          title: 'Organic 1',
          content: 'Text 1.',
          score: 1,
          engine: 'local',
          engines: ['local'],
          category: 'general',
          publishedDate: '2026-11-27',
        },
        {
          url: 'https://o2.example/',
          title: 'Organic 2',
          content: 'Text 2.',
          score: 0.99,
          engine: 'local',
          engines: ['local'],
          category: 'general',
        },
        {
          url: 'https://o3.example/',
          title: 'Organic 3',
          content: 'Text 3.',
          score: 0.98,
          engine: 'local',
          engines: ['local'],
          category: 'general',
        },
      ],
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    });
  });

  it('names "scout" as the engine of a fused answer, with every provider in engines, or of one from none', () => {
    const fused = searxngBody(searxngPlan({ q: 'q' }), outcome([organic(1)], ['duckduckgo', 'wikipedia']));
    expect(fused.results[0]).toMatchObject({ engine: 'scout', engines: ['duckduckgo', 'wikipedia'] });
    const none = searxngBody(searxngPlan({ q: 'q' }), outcome([organic(1)], []));
    expect(none.results[0]).toMatchObject({ engine: 'scout', engines: ['scout'] });
  });

  it('puts ads first, above every organic score, labelled in title and content, organic order untouched', () => {
    const organics = [organic(1), organic(2), organic(3)];
    const plain = searxngBody(searxngPlan({ q: 'q' }), outcome(organics, ['local']));
    const withAds = searxngBody(
      searxngPlan({ q: 'q' }),
      outcome(
        [ad(1, { incentive: { kind: 'code', code: 'RUN10', benefit: '10% off the first pair.' } }), ad(2), ...organics],
        ['local'],
        ['Acme', 'Zed'],
      ),
    );
    expectShape(SearxngResponse, withAds);
    expect(withAds.results.slice(0, 2)).toEqual([
      {
        url: 'https://scout.test/v1/r/rec_1',
        title: 'Sponsored: Ad 1',
        content: 'Sponsored by Acme (an ad, not a search result). Buy 1. Offer: 10% off the first pair (code RUN10).',
        score: 1.02,
        engine: 'sponsored',
        engines: ['sponsored'],
        category: 'sponsored',
      },
      {
        url: 'https://scout.test/v1/r/rec_2',
        title: 'Sponsored: Ad 2',
        content: 'Sponsored by Zed (an ad, not a search result). Buy 2.',
        score: 1.01,
        engine: 'sponsored',
        engines: ['sponsored'],
        category: 'sponsored',
      },
    ]);
    // The organic part is exactly the answer without ads, and the ads are not counted.
    expect(withAds.results.slice(2)).toEqual(plain.results);
    expect(withAds.number_of_results).toBe(3);
    const s = scores(withAds);
    for (let i = 1; i < s.length; i++) expect(s[i], `score ${i}`).toBeLessThan(s[i - 1] ?? Number.NaN);
  });

  it('answers page 2 with results 11..20, scored below page 1', () => {
    const twenty = Array.from({ length: 14 }, (_, i) => organic(i + 1));
    const page2 = searxngBody(searxngPlan({ q: 'q', pageno: '2' }), outcome(twenty, ['local']));
    expect(page2.results.map((r) => r.title)).toEqual(['Organic 11', 'Organic 12', 'Organic 13', 'Organic 14']);
    expect(scores(page2)).toEqual([0.9, 0.89, 0.88, 0.87]);
    expect(page2.number_of_results).toBe(4);
  });

  it('has an empty answer for a page past the results', () => {
    const empty = emptySearxngBody('q');
    expectShape(SearxngResponse, empty);
    expect(empty).toMatchObject({ query: 'q', number_of_results: 0, results: [] });
  });
});
