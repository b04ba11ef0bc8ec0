import { describe, expect, it } from 'vitest';
import { PAGES_SERVED, searxngPlan } from '../../src/compat/searxng-request.ts';
import { DomainError } from '../../src/domain/errors.ts';

/** The DomainError searxngPlan throws for `params`, or a failure when it answers. */
const refusal = (params: Record<string, string | string[]>): DomainError => {
  try {
    searxngPlan(params);
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error(`expected a refusal of ${JSON.stringify(params)}`);
};

describe('SearXNG parameters → a Scout search', () => {
  it("asks page 1 as /v1's default search (10 results) and ignores what Scout has no use for", () => {
    // Exactly what OpenWebUI sends.
    const plan = searxngPlan({
      q: 'postgres pooling',
      format: 'json',
      pageno: '1',
      safesearch: '1',
      language: 'en-US',
      time_range: '',
      categories: '',
      theme: 'simple',
      image_proxy: '0',
      engines: 'google,bing',
      some_future_parameter: 'x',
    });
    expect(plan).toEqual({
      query: 'postgres pooling',
      page: 1,
      skip: 0,
      request: { query: 'postgres pooling', max_results: 10 },
    });
  });

  it('pages by 10: page 2 is results 11..20 of a 20-result search, later pages run no search', () => {
    expect(PAGES_SERVED).toBe(2);
    expect(searxngPlan({ q: 'x', pageno: '2' })).toEqual({
      query: 'x',
      page: 2,
      skip: 10,
      request: { query: 'x', max_results: 20 },
    });
    expect(searxngPlan({ q: 'x', pageno: '3' })).toEqual({ query: 'x', page: 3, skip: 20, request: undefined });
    expect(searxngPlan({ q: 'x', pageno: '' }).page).toBe(1);
    for (const bad of ['0', '-1', '1.5', 'two'])
      expect(refusal({ q: 'x', pageno: bad }).message).toBe('pageno must be a whole number from 1');
  });

  it('maps time_range onto freshness, empty meaning none, and refuses a range it cannot honour', () => {
    for (const range of ['day', 'week', 'month', 'year'])
      expect(searxngPlan({ q: 'x', time_range: range }).request?.freshness).toBe(range);
    expect(searxngPlan({ q: 'x', time_range: 'WEEK' }).request?.freshness).toBe('week');
    expect(searxngPlan({ q: 'x', time_range: '' }).request).not.toHaveProperty('freshness');
    expect(refusal({ q: 'x', time_range: 'decade' }).message).toBe(
      'time_range must be day, week, month or year, or empty for none',
    );
  });

  it('answers JSON when format is json in any case, empty or absent, and refuses the other formats', () => {
    for (const format of ['json', 'JSON', '']) expect(searxngPlan({ q: 'x', format }).request?.query, format).toBe('x');
    expect(searxngPlan({ q: 'x' }).request?.query).toBe('x');
    for (const format of ['html', 'csv', 'rss']) {
      const e = refusal({ q: 'x', format });
      expect(e.kind).toBe('invalid');
      expect(e.message).toBe(`format ${format} is not served: Scout answers SearXNG's JSON only; send format=json`);
    }
  });

  it('reads the first of a repeated parameter, as SearXNG does', () => {
    expect(searxngPlan({ q: ['first', 'second'], pageno: ['2', '1'] })).toMatchObject({ query: 'first', page: 2 });
  });

  it('needs a query of 1 to 400 characters', () => {
    for (const params of [{}, { q: '' }, { q: '   ' }])
      expect(refusal(params).message).toBe('q is required: the search query, 1 to 400 characters');
    expect(refusal({ q: 'x'.repeat(401) }).message).toBe('q must be 1 to 400 characters');
    expect(searxngPlan({ q: 'x'.repeat(400) }).request?.query).toHaveLength(400);
  });
});
