import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

/**
 * Edges of the HTTP surface. `t.request` already checks that every error is exactly the
 * Error shape with error.status equal to the HTTP status, and that x-request-id is present.
 */
let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_MONTHLY_SEARCH_BUDGET: '1000' });
});
afterAll(() => t.close());

describe('a path segment over the router limit', () => {
  const long = `rec_${'a'.repeat(120)}`;

  it('is 414 in the Error shape, with an x-request-id, without echoing the path', async () => {
    const res = await t.request<ErrorBody>('GET', `/v1/r/${long}`, { key: null });
    expect(res.status).toBe(414);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.error.message).toBe('a segment of the URL path is longer than 100 characters; send a shorter path');
    expect(res.text).not.toContain('aaaaaaaaaa');
  });

  it('undecodable percent-encoding in a path parameter is 400 in the Error shape, with an x-request-id', async () => {
    const res = await t.request<ErrorBody>('GET', '/v1/r/rec_%E0%A4%A', { key: null });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('the request URL is malformed');
  });
});

describe('GET /v1/search refuses query parameters that are not percent-encoded UTF-8', () => {
  it.each([
    ['q=%FF', 'q'],
    ['q=caf%E9', 'q'],
    ['q=100%', 'q'],
    ['q=x&country=%C3', 'country'],
    ['q=x&include_domains=a.com&include_domains=%FFb.com', 'include_domains'],
  ])('%s → 400 naming %s', async (qs, name) => {
    const res = await t.request<ErrorBody>('GET', `/v1/search?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `${name} is not valid percent-encoded UTF-8; encode the text as UTF-8, and a literal % as %25`,
    );
  });

  it('an undecodable parameter name is refused too', async () => {
    const res = await t.request<ErrorBody>('GET', '/v1/search?q=x&%FF=1');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'a query parameter name is not valid percent-encoded UTF-8; encode it as UTF-8, and a literal % as %25',
    );
  });

  it('valid UTF-8, a plus for a space and %25 for a percent sign are searched', async () => {
    const res = await t.request<SearchResponse>('GET', '/v1/search?q=caf%C3%A9+100%25+scout');
    expect(res.status).toBe(200);
    expect(res.body.query).toBe('café 100% scout');
  });
});

describe('an empty domain list item is refused on GET as on POST', () => {
  const postMessage = async (field: string, list: string[]) => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', { body: { query: 'x', [field]: list } });
    expect(res.status).toBe(400);
    return res.body.error.message as string;
  };

  it.each([
    ['include_domains', 'include_domains=a.com&include_domains=', ['a.com', '']],
    ['include_domains', 'include_domains=a.com,', ['a.com', '']],
    ['include_domains', 'include_domains=a.com,,b.com', ['a.com', '', 'b.com']],
    ['include_domains', 'include_domains=,a.com', ['', 'a.com']],
    ['exclude_domains', 'exclude_domains=a.com&exclude_domains=', ['a.com', '']],
    ['exclude_domains', 'exclude_domains=a.com,', ['a.com', '']],
    // Items are trimmed (`a.com, b.com`), so an item of spaces is an empty item.
    ['exclude_domains', 'exclude_domains=a.com,%20', ['a.com', '']],
  ])('%s: %s → 400 with the POST message', async (field, qs, list) => {
    const res = await t.request<ErrorBody>('GET', `/v1/search?q=x&${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
    expect(res.body.error.message).toBe(await postMessage(field, list));
  });

  it('lists without empty items still work, spaces around commas included', async () => {
    const res = await t.request(
      'GET',
      '/v1/search?q=scout&include_domains=a.com,%20b.com&include_domains=localhost&exclude_domains=x.com',
    );
    expect(res.status).toBe(200);
  });
});
