import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_BODY_LIMIT_BYTES: '2048' });
});
afterAll(() => t.close());

describe('errors the framework raises use the Error shape', () => {
  it('malformed JSON → 400', async () => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', {
      rawBody: '{"query": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('request body is not valid JSON; send a JSON object');
  });

  it('empty JSON body → 400', async () => {
    const res = await t.request<ErrorBody>('POST', '/v1/fetch', {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('empty');
  });

  it('no body at all → 400 naming the shape', async () => {
    const res = await t.request<ErrorBody>('POST', '/v1/search');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('must be a JSON object');
  });

  it('wrong content type → 400 that says to send JSON', async () => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', {
      rawBody: 'query=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('Content-Type: application/json');
  });

  it('oversized body → 413', async () => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', { body: { query: 'x', pad: 'y'.repeat(5000) } });
    expect(res.status).toBe(413);
    expect(res.body.error.message).toContain('2048 bytes');
  });

  it('unknown route → 404 without needing a key', async () => {
    const res = await t.request<ErrorBody>('GET', '/v1/nothing', { key: null });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('no route GET /v1/nothing');
  });

  it('wrong method → 405 with Allow', async () => {
    const res = await t.request<ErrorBody>('DELETE', '/v1/search');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
    expect(res.body.error.message).toContain('DELETE is not allowed');
    const fetchGet = await t.request('GET', '/v1/fetch');
    expect(fetchGet.status).toBe(405);
    expect(fetchGet.headers.get('allow')).toBe('POST');
  });

  it('never leaks a stack trace or a path', async () => {
    const res = await t.request('POST', '/v1/search', {
      rawBody: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.text).not.toMatch(/at .*\.ts:\d+|node_modules|\/work\//);
  });
});

describe('request ids and timing', () => {
  it('request_id is unique, echoed in x-request-id and in the logs', async () => {
    const a = await t.request<SearchResponse>('POST', '/v1/search', { body: { query: 'scout' } });
    const b = await t.request<SearchResponse>('POST', '/v1/search', { body: { query: 'scout' } });
    expect(a.status).toBe(200);
    expect(a.body.request_id).not.toBe(b.body.request_id);
    expect(a.headers.get('x-request-id')).toBe(a.body.request_id);
    expect(a.body.response_time_ms).toBeGreaterThan(0);
    const lines = t.logs.filter((l) => l.request_id === a.body.request_id);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request', method: 'POST', path: '/v1/search', status: 200 }),
    ]);
    const refused = await t.request('POST', '/v1/search', { body: {} });
    expect(t.logs.filter((l) => l.request_id === refused.headers.get('x-request-id')).length).toBe(2); // the reason, then the request line
  });

  it('errors carry x-request-id too', async () => {
    const res = await t.request('POST', '/v1/search', { body: {} });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
