import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout();
});
afterAll(() => t.close());

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 version 1.0.0 with the three operations and their schemas', async () => {
    const res = await t.request('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.paths['/v1/search'].post.operationId).toBe('search');
    expect(doc.paths['/v1/search'].get.operationId).toBe('searchByQuery');
    expect(doc.paths['/v1/fetch'].post.operationId).toBe('fetchPage');
    const body = doc.paths['/v1/search'].post.requestBody.content['application/json'].schema;
    expect(body.properties.max_results.maximum).toBe(20);
    expect(body.additionalProperties).toBe(false);
    const ok = doc.paths['/v1/fetch'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok.properties)).toEqual(
      expect.arrayContaining(['request_id', 'url', 'final_url', 'title', 'content', 'chars', 'truncated', 'response_time_ms', 'meta']),
    );
    expect(doc.paths['/v1/fetch'].post.responses['504']).toBeDefined();
    expect(doc.paths['/v1/search'].get.parameters.map((p: { name: string }) => p.name)).toContain('include_domains');
    expect(doc.paths['/healthz']).toBeUndefined();
    expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
    // Response headers are part of the contract too.
    expect(Object.keys(doc.paths['/v1/search'].post.responses['200'].headers)).toEqual(
      expect.arrayContaining(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-scout-provider']),
    );
    expect(doc.paths['/v1/search'].post.responses['429'].headers['retry-after']).toBeDefined();
    expect(doc.paths['/v1/fetch'].post.responses['401'].headers['www-authenticate']).toBeDefined();
    expect(doc.paths['/v1/search'].get.responses['413']).toBeUndefined();
  });
});

describe('GET /healthz', () => {
  it('answers 200 without a key', async () => {
    const res = await t.request('GET', '/healthz', { key: null });
    expect(res.status).toBe(200);
  });
});
