import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_MONTHLY_SEARCH_BUDGET: '1000' });
});
afterAll(() => t.close());

const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}/v1/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('request bodies', () => {
  it('refuses a JSON text sent as text/plain, naming the content type to use', async () => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', {
      rawBody: '{"query":"x"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('request body must be JSON: send Content-Type: application/json');
  });

  it('refuses bytes that are not UTF-8 instead of changing the query', async () => {
    const res = await post(Buffer.concat([Buffer.from('{"query":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('not valid UTF-8');
  });

  it('says that compressed request bodies are not supported', async () => {
    const res = await post(gzipSync('{"query":"x"}'), { 'content-encoding': 'gzip' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('Content-Encoding is not supported');
  });

  it.each(['{"query":"x","__proto__":{"a":1}}', '{"query":"x","constructor":{"prototype":{"a":1}}}'])(
    'names prototype keys: %s',
    async (raw) => {
      const res = await post(raw);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('__proto__');
    },
  );
});

describe('methods', () => {
  it('HEAD /v1/search is 405 and charges nothing', async () => {
    const before = await t.scout.budget.used(new Date().toISOString().slice(0, 7));
    const res = await fetch(`${t.baseUrl}/v1/search?q=scout`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(await t.scout.budget.used(new Date().toISOString().slice(0, 7))).toBe(before);
  });

  it('a wrong method on a route with a parameter is 405 too', async () => {
    const res = await t.request('POST', '/v1/r/rec_abc', { key: null });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('query parameters and fields', () => {
  it('an empty include_domains on GET is refused like "" on POST', async () => {
    const get = await t.request('GET', '/v1/search?q=x&include_domains=');
    const post = await t.request('POST', '/v1/search', { body: { query: 'x', include_domains: '' } });
    expect(get.status).toBe(400);
    expect(post.status).toBe(400);
  });

  it.each([
    ['UK', 'the United Kingdom is GB'],
    ['ZZ', 'not an ISO 3166-1 alpha-2 code'],
  ])('country %s is refused', async (country, message) => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', { body: { query: 'x', country } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });
});

describe('repeated auth headers', () => {
  /** Raw request: fetch() cannot repeat a header. */
  const raw = (headers: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(t.baseUrl);
      const s = connect(Number(port), hostname, () =>
        s.end(`GET /v1/search?q=x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${headers}\r\n`),
      );
      let out = '';
      s.on('data', (c) => (out += c));
      s.on('close', () => resolve(Number(out.split(' ')[1])));
      s.on('error', reject);
    });

  it('two Authorization headers, or two x-api-key headers, are 401', async () => {
    const other = (await t.scout.keys.create('other')).key;
    expect(await raw(`Authorization: Bearer ${t.key}\r\nAuthorization: Bearer ${other}\r\n`)).toBe(401);
    expect(await raw(`x-api-key: ${t.key}\r\nx-api-key: ${t.key}\r\n`)).toBe(401);
    expect(await raw(`Authorization: Bearer ${t.key}\r\nx-api-key: ${t.key}\r\n`)).toBe(200);
  });
});
