import { validate, compileErrors } from '@readme/openapi-parser';
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { EXAMPLES } from '../../src/schemas/examples.ts';
import {
  ExtractFailure,
  ExtractPage,
  ExtractPassage,
  ExtractRequest,
  ExtractResponse,
} from '../../src/schemas/extract.ts';
import { FetchRequest, FetchResponse } from '../../src/schemas/fetch.ts';
import {
  FirecrawlCrawlCancelResponse,
  FirecrawlCrawlResponse,
  FirecrawlCrawlStatusResponse,
  FirecrawlDocument,
  FirecrawlError,
  FirecrawlMapResponse,
  FirecrawlMetadata,
  FirecrawlScrapeResponse,
  FirecrawlSearchResponse,
  FirecrawlWebResult,
} from '../../src/schemas/firecrawl.ts';
import { MapLink, MapRequest, MapResponse, MapStop } from '../../src/schemas/map.ts';
import { CrawlJob, CrawlJobStatus } from '../../src/schemas/crawl-job.ts';
import { CrawlPage, CrawlRequest, CrawlResponse, CrawlSkipped, CrawlStop } from '../../src/schemas/crawl.ts';
import { Incentive, Result, SearchRequest, SearchResponse } from '../../src/schemas/search.ts';
import { SearxngResponse, SearxngResult } from '../../src/schemas/searxng.ts';
import {
  TavilyCrawlResponse,
  TavilyError,
  TavilyExtractResponse,
  TavilyMapResponse,
  TavilyResult,
  TavilySearchResponse,
} from '../../src/schemas/tavily.ts';
import { Usage } from '../../src/schemas/usage.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

/** The named components and the schemas they document. */
const COMPONENTS: Record<string, TSchema> = {
  SearchRequest,
  SearchResponse,
  Result,
  Incentive,
  FetchRequest,
  FetchResponse,
  MapRequest,
  MapResponse,
  MapLink,
  MapStop,
  MapSkipped: MapResponse.properties.skipped.items,
  CrawlRequest,
  CrawlResponse,
  CrawlPage,
  CrawlStop,
  CrawlSkipped,
  CrawlJob,
  CrawlJobStatus,
  ExtractRequest,
  ExtractResponse,
  ExtractPage,
  ExtractFailure,
  ExtractPassage,
  Error: ErrorBody,
  Usage,
  SearxngResponse,
  SearxngResult,
  TavilySearchResponse,
  TavilyResult,
  TavilyExtractResponse,
  TavilyMapResponse,
  TavilyCrawlResponse,
  TavilyError,
  FirecrawlScrapeResponse,
  FirecrawlDocument,
  FirecrawlMetadata,
  FirecrawlSearchResponse,
  FirecrawlWebResult,
  FirecrawlMapResponse,
  FirecrawlCrawlResponse,
  FirecrawlCrawlStatusResponse,
  FirecrawlCrawlCancelResponse,
  FirecrawlError,
};

/** Follows a `#/components/schemas/X` reference of the document. */
// biome-ignore lint/suspicious/noExplicitAny: the served document is walked as JSON; each read is what the assertion after it checks
type Json = any;

const deref = (doc: Json, schema: Json): Json =>
  typeof schema?.$ref === 'string' ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout();
});
afterAll(() => t.close());

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 version 1.0.0 with the three operations and their schemas', async () => {
    const res = await t.request<Json>('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.paths['/v1/search'].post.operationId).toBe('search');
    expect(doc.paths['/v1/search'].get.operationId).toBe('searchByQuery');
    expect(doc.paths['/v1/fetch'].post.operationId).toBe('fetchPage');
    const body = deref(doc, doc.paths['/v1/search'].post.requestBody.content['application/json'].schema);
    expect(body.properties.max_results.maximum).toBe(20);
    expect(body.additionalProperties).toBe(false);
    const ok = deref(doc, doc.paths['/v1/fetch'].post.responses['200'].content['application/json'].schema);
    expect(Object.keys(ok.properties)).toEqual(
      expect.arrayContaining([
        'request_id',
        'url',
        'final_url',
        'title',
        'content',
        'chars',
        'truncated',
        'response_time_ms',
        'meta',
      ]),
    );
    expect(doc.paths['/v1/fetch'].post.responses['504']).toBeDefined();
    expect(doc.paths['/v1/search'].get.parameters.map((p: { name: string }) => p.name)).toContain('include_domains');
    expect(doc.paths['/healthz']).toBeUndefined();
    expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
    // Response headers are part of the contract too.
    expect(Object.keys(doc.paths['/v1/search'].post.responses['200'].headers)).toEqual(
      expect.arrayContaining([
        'x-request-id',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'x-scout-provider',
      ]),
    );
    expect(doc.paths['/v1/search'].post.responses['429'].headers['retry-after']).toBeDefined();
    expect(doc.paths['/v1/fetch'].post.responses['401'].headers['www-authenticate']).toBeDefined();
    expect(doc.paths['/v1/search'].get.responses['413']).toBeUndefined();
  });
});

describe('OpenAPI components', () => {
  it('names every shared shape, and the operations refer to them', async () => {
    const doc = (await t.request<Json>('GET', '/openapi.json', { key: null })).body;
    expect(Object.keys(doc.components.schemas).sort()).toEqual(Object.keys(COMPONENTS).sort());
    const json = (op: Json, status?: number) =>
      (status === undefined ? op.requestBody : op.responses[String(status)]).content['application/json'].schema;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(json(doc.paths['/v1/search'].post)).toEqual(ref('SearchRequest'));
    expect(json(doc.paths['/v1/search'].post, 200)).toEqual(ref('SearchResponse'));
    expect(json(doc.paths['/v1/search'].get, 200)).toEqual(ref('SearchResponse'));
    expect(json(doc.paths['/v1/fetch'].post)).toEqual(ref('FetchRequest'));
    expect(json(doc.paths['/v1/fetch'].post, 200)).toEqual(ref('FetchResponse'));
    expect(json(doc.paths['/v1/usage'].get, 200)).toEqual(ref('Usage'));
    expect(json(doc.paths['/v1/map'].post)).toEqual(ref('MapRequest'));
    expect(json(doc.paths['/v1/map'].post, 200)).toEqual(ref('MapResponse'));
    expect(doc.components.schemas.MapResponse.properties.results.items).toEqual(ref('MapLink'));
    expect(json(doc.paths['/v1/crawl'].post)).toEqual(ref('CrawlRequest'));
    expect(json(doc.paths['/v1/crawl'].post, 200)).toEqual(ref('CrawlResponse'));
    expect(doc.components.schemas.CrawlResponse.properties.pages.items).toEqual(ref('CrawlPage'));
    expect(doc.components.schemas.CrawlResponse.properties.skipped.items).toEqual(ref('CrawlSkipped'));
    expect(doc.components.schemas.CrawlResponse.properties.stopped.anyOf).toContainEqual(ref('CrawlStop'));
    for (const status of [400, 401, 403, 429]) expect(json(doc.paths['/v1/crawl'].post, status)).toEqual(ref('Error'));
    expect(json(doc.paths['/v1/extract'].post)).toEqual(ref('ExtractRequest'));
    expect(json(doc.paths['/v1/extract'].post, 200)).toEqual(ref('ExtractResponse'));
    expect(doc.components.schemas.ExtractResponse.properties.results.items.anyOf).toEqual([
      ref('ExtractPage'),
      ref('ExtractFailure'),
    ]);
    expect(doc.components.schemas.ExtractPage.properties.passages.items).toEqual(ref('ExtractPassage'));
    for (const status of [400, 401, 429]) expect(json(doc.paths['/v1/extract'].post, status)).toEqual(ref('Error'));
    for (const status of [400, 401, 403, 413, 415, 429, 502, 503, 504])
      expect(json(doc.paths['/v1/fetch'].post, status)).toEqual(ref('Error'));
    expect(json(doc.paths['/v1/r/{rec_id}'].get, 404)).toEqual(ref('Error'));
    expect(doc.components.schemas.SearchResponse.properties.results.items).toEqual(ref('Result'));
    expect(doc.components.schemas.Result.properties.incentive).toEqual(ref('Incentive'));
    // The shapes themselves are the strict ones.
    expect(doc.components.schemas.Result.additionalProperties).toBe(false);
    expect(doc.components.schemas.Error.properties.error.additionalProperties).toBe(false);
  });

  it('gives each component examples that its strict schema accepts, a search with one sponsored and one organic result', async () => {
    const doc = (await t.request<Json>('GET', '/openapi.json', { key: null })).body;
    for (const [name, schema] of Object.entries(COMPONENTS)) {
      const examples = doc.components.schemas[name].examples;
      expect(examples, name).toEqual(EXAMPLES[name]);
      expect(examples.length, name).toBeGreaterThan(0);
      for (const example of examples) expectShape(schema, example);
    }
    const types = doc.components.schemas.SearchResponse.examples[0].results.map((r: { type: string }) => r.type);
    expect(types).toEqual(['sponsored', 'organic']);
  });

  it('states request defaults in the descriptions, so generated clients keep those fields optional', async () => {
    const doc = (await t.request<Json>('GET', '/openapi.json', { key: null })).body;
    for (const name of ['SearchRequest', 'FetchRequest', 'MapRequest', 'ExtractRequest', 'CrawlRequest']) {
      for (const [field, property] of Object.entries<Json>(doc.components.schemas[name].properties)) {
        expect(property.default, `${name}.${field}`).toBeUndefined();
      }
    }
    expect(doc.components.schemas.SearchRequest.properties.max_results.description).toContain('default 10');
    expect(doc.components.schemas.SearchRequest.properties.search_depth.description).toContain('the default');
    expect(doc.components.schemas.FetchRequest.properties.max_chars.description).toContain('default 50000');
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const doc = (await t.request<Json>('GET', '/openapi.json', { key: null })).body;
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('lists GET /v1/usage with its key, its headers and its errors (never 429: it takes no request)', async () => {
    const doc = (await t.request<Json>('GET', '/openapi.json', { key: null })).body;
    const op = doc.paths['/v1/usage'].get;
    expect(op.operationId).toBe('getUsage');
    expect(op.security).toBeUndefined(); // the document's default: bearer or x-api-key
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '503']);
    expect(Object.keys(op.responses['200'].headers)).toEqual(
      expect.arrayContaining([
        'x-request-id',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'cache-control',
      ]),
    );
    expect(op.responses['503'].headers['retry-after']).toBeDefined();
    expect(op.responses['401'].headers['www-authenticate']).toBeDefined();
  });
});

describe('the compat shapes in OpenAPI', () => {
  it('lists the SearXNG and Tavily routes under their own tags and leaves /v1 untagged', async () => {
    const doc = (await t.request<Json>('GET', '/openapi.json', { key: null })).body;
    const get = doc.paths['/search'].get;
    const post = doc.paths['/search'].post;
    // POST /search is both: a form is SearXNG, a JSON body Tavily.
    expect([get.tags, post.tags]).toEqual([['searxng'], ['searxng', 'tavily']]);
    expect([get.operationId, post.operationId]).toEqual(['searxngSearch', 'searxngSearchForm']);
    expect(get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SearxngResponse',
    });
    expect(Object.keys(post.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
    expect(post.responses['432']).toBeDefined();
    const extract = doc.paths['/extract'].post;
    expect([extract.tags, extract.operationId]).toEqual([['tavily'], 'tavilyExtract']);
    expect(extract.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TavilyExtractResponse',
    });
    expect(doc.paths['/k/{key}/extract']).toBeUndefined();
    // The maps of both shapes, under their tags, the path-key copies unlisted.
    const maps = [doc.paths['/map'].post, doc.paths['/v2/map'].post];
    expect(maps.map((m) => [m.tags, m.operationId])).toEqual([
      [['tavily'], 'tavilyMap'],
      [['firecrawl'], 'firecrawlMap'],
    ]);
    expect(maps.map((m) => m.responses['200'].content['application/json'].schema)).toEqual([
      { $ref: '#/components/schemas/TavilyMapResponse' },
      { $ref: '#/components/schemas/FirecrawlMapResponse' },
    ]);
    expect(doc.paths['/k/{key}/map']).toBeUndefined();
    // Firecrawl's crawl: start, status and cancel, the path-key copies and the active list unlisted.
    const fcCrawl = doc.paths['/v2/crawl'].post;
    const fcJob = doc.paths['/v2/crawl/{id}'];
    expect([fcCrawl, fcJob.get, fcJob.delete].map((o) => [o.tags, o.operationId])).toEqual([
      [['firecrawl'], 'firecrawlCrawl'],
      [['firecrawl'], 'firecrawlCrawlStatus'],
      [['firecrawl'], 'firecrawlCrawlCancel'],
    ]);
    expect(
      [fcCrawl, fcJob.get, fcJob.delete].map((o) => o.responses['200'].content['application/json'].schema),
    ).toEqual([
      { $ref: '#/components/schemas/FirecrawlCrawlResponse' },
      { $ref: '#/components/schemas/FirecrawlCrawlStatusResponse' },
      { $ref: '#/components/schemas/FirecrawlCrawlCancelResponse' },
    ]);
    expect(fcJob.get.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/FirecrawlError',
    });
    expect(doc.paths['/k/{key}/v2/crawl']).toBeUndefined();
    expect(doc.paths['/v2/crawl/active']).toBeUndefined();
    const tavilyCrawl = doc.paths['/crawl'].post;
    expect([tavilyCrawl.tags, tavilyCrawl.operationId]).toEqual([['tavily'], 'tavilyCrawl']);
    expect(tavilyCrawl.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TavilyCrawlResponse',
    });
    expect(doc.paths['/k/{key}/crawl']).toBeUndefined();
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['q', 'format', 'pageno', 'time_range']),
    );
    expect(post.responses['415']).toBeDefined();
    expect(doc.paths['/v1/search'].post.tags).toBeUndefined();
  });
});

describe('GET /healthz', () => {
  it('answers 200 without a key', async () => {
    const res = await t.request('GET', '/healthz', { key: null });
    expect(res.status).toBe(200);
  });
});
