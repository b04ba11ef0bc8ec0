import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000' });
});
afterAll(() => t.close());

const base = { query: 'scout' };

// One case per rule of SPEC 2.1; `message` is a fragment the caller must see.
const postCases: [string, unknown, string][] = [
  ['query missing', {}, 'query is required'],
  ['query empty', { query: '' }, 'query must be a string of 1 to 400 characters'],
  ['query too long', { query: 'a'.repeat(401) }, 'query must be a string of 1 to 400 characters'],
  ['query not a string', { query: 5 }, 'query must be a string'],
  ['max_results 0', { ...base, max_results: 0 }, 'max_results must be an integer from 1 to 20'],
  ['max_results 21', { ...base, max_results: 21 }, 'max_results must be an integer from 1 to 20'],
  ['max_results 5.5', { ...base, max_results: 5.5 }, 'max_results must be an integer from 1 to 20'],
  ['max_results "5" is not coerced', { ...base, max_results: '5' }, 'max_results must be an integer from 1 to 20'],
  ['include_domains number', { ...base, include_domains: 5 }, 'include_domains must be a domain string or an array'],
  [
    'include_domains array of numbers',
    { ...base, include_domains: [5] },
    'include_domains must be a domain string or an array',
  ],
  [
    'exclude_domains object',
    { ...base, exclude_domains: { a: 1 } },
    'exclude_domains must be a domain string or an array',
  ],
  [
    'include_domains over 50',
    { ...base, include_domains: Array.from({ length: 51 }, (_, i) => `d${i}.com`) },
    'include_domains',
  ],
  ['include_domains not a domain', { ...base, include_domains: ['not a domain!'] }, 'is not a domain'],
  ['freshness bad', { ...base, freshness: 'hour' }, 'freshness must be one of day, week, month, year'],
  ['start_date shape', { ...base, start_date: '2025-1-01' }, 'start_date must be a date YYYY-MM-DD'],
  ['end_date shape', { ...base, end_date: '01/02/2025' }, 'end_date must be a date YYYY-MM-DD'],
  ['start_date impossible', { ...base, start_date: '2025-02-30' }, 'start_date must be a real calendar date'],
  ['start after end', { ...base, start_date: '2025-03-01', end_date: '2025-02-01' }, 'must not be after end_date'],
  ['search_depth bad', { ...base, search_depth: 'deep' }, 'search_depth must be one of basic, advanced'],
  [
    'max_content_tokens 99',
    { ...base, max_content_tokens: 99 },
    'max_content_tokens must be an integer from 100 to 32000',
  ],
  [
    'max_content_tokens 32001',
    { ...base, max_content_tokens: 32001 },
    'max_content_tokens must be an integer from 100 to 32000',
  ],
  ['country 3 letters', { ...base, country: 'USA' }, 'country must be a 2-letter country code'],
  ['country 1 letter', { ...base, country: 'U' }, 'country must be a 2-letter country code'],
  ['unknown field', { ...base, max_result: 5 }, 'unknown field "max_result"'],
  ['body is an array', [base], 'must be a JSON object'],
  ['body is a string', 'scout', 'must be a JSON object'],
  ['body is null', null, 'must be a JSON object'],
];

describe('POST /v1/search validation', () => {
  it.each(postCases)('%s → 400', async (_name, body, message) => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it('accepts every field at its limits', async () => {
    const res = await t.request('POST', '/v1/search', {
      body: {
        query: 'a'.repeat(400),
        max_results: 20,
        include_domains: 'example.com',
        exclude_domains: ['a.example.com', 'https://www.B.example.org/path'],
        start_date: '2024-02-29',
        end_date: '2024-03-01',
        freshness: 'week',
        search_depth: 'basic',
        max_content_tokens: 32000,
        country: 'us',
      },
    });
    expect(res.status).toBe(200);
  });
});

const getCases: [string, string, string][] = [
  ['q missing', '', 'q is required'],
  ['q empty', 'q=', 'q must be a string of 1 to 400 characters'],
  ['q too long', `q=${'a'.repeat(401)}`, 'q must be a string of 1 to 400 characters'],
  ['max_results 5.5', 'q=x&max_results=5.5', 'max_results must be an integer from 1 to 20'],
  ['max_results abc', 'q=x&max_results=abc', 'max_results must be an integer from 1 to 20'],
  ['max_results empty', 'q=x&max_results=', 'max_results must be an integer from 1 to 20'],
  ['max_results 21', 'q=x&max_results=21', 'max_results must be an integer from 1 to 20'],
  ['max_results twice', 'q=x&max_results=2&max_results=3', 'max_results must be given once'],
  ['freshness bad', 'q=x&freshness=hour', 'freshness must be one of day, week, month, year'],
  ['start_date shape', 'q=x&start_date=2025-1-1', 'start_date must be a date YYYY-MM-DD'],
  ['end_date impossible', 'q=x&end_date=2025-02-30', 'end_date must be a real calendar date'],
  ['search_depth bad', 'q=x&search_depth=deep', 'search_depth must be one of basic, advanced'],
  ['country bad', 'q=x&country=usa', 'country must be a 2-letter country code'],
  [
    'include_domains over 50',
    `q=x&include_domains=${Array.from({ length: 51 }, (_, i) => `d${i}.com`).join(',')}`,
    'at most 50',
  ],
  ['max_content_tokens not on GET', 'q=x&max_content_tokens=500', 'max_content_tokens is not accepted on GET'],
  ['unknown parameter', 'q=x&query=y', 'unknown query parameter "query"'],
  ['api key in query string', 'q=x&api_key=abc', 'unknown query parameter "api_key"'],
];

describe('GET /v1/search validation', () => {
  it.each(getCases)('%s → 400', async (_name, qs, message) => {
    const res = await t.request<ErrorBody>('GET', `/v1/search?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it('parses "5" strictly and accepts repeated and comma-listed domains', async () => {
    const res = await t.request(
      'GET',
      '/v1/search?q=scout&max_results=5&include_domains=a.com,b.com&include_domains=localhost&exclude_domains=x.com',
    );
    expect(res.status).toBe(200);
  });
});
