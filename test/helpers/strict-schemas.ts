import { Ajv } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { expect } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { FetchResponse } from '../../src/schemas/fetch.ts';
import {
  FirecrawlCrawlCancelResponse,
  FirecrawlCrawlResponse,
  FirecrawlCrawlStatusResponse,
  FirecrawlError,
  FirecrawlMapResponse,
  FirecrawlScrapeResponse,
  FirecrawlSearchResponse,
} from '../../src/schemas/firecrawl.ts';
import { MapResponse } from '../../src/schemas/map.ts';
import { CrawlJob } from '../../src/schemas/crawl-job.ts';
import { CrawlResponse } from '../../src/schemas/crawl.ts';
import { SearchResponse } from '../../src/schemas/search.ts';
import { SearxngResponse } from '../../src/schemas/searxng.ts';
import {
  TavilyCrawlResponse,
  TavilyError,
  TavilyExtractResponse,
  TavilyMapResponse,
  TavilySearchResponse,
} from '../../src/schemas/tavily.ts';
import { Usage } from '../../src/schemas/usage.ts';
import { AdminKey, AdminKeyList, AdminOverview } from '../../src/schemas/admin.ts';

// Strict: no coercion, no removal; every schema already forbids additional properties.
const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new Map<TSchema, ReturnType<typeof ajv.compile>>();

/** Fails the test unless `value` is of `schema`; past it, TypeScript knows the value's type too. */
export function expectShape<T extends TSchema>(schema: T, value: unknown): asserts value is Static<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  const ok = check(value);
  expect(ok, `${JSON.stringify(value).slice(0, 500)}\n${ajv.errorsText(check.errors)}`).toBe(true);
}

/** The Tavily shape answers POST /extract, POST /map, POST /crawl, POST /search when its body is JSON, and its unserved paths (docs/compat.md). */
export const isTavilyCall = (method: string, path: string, jsonBody: boolean): boolean =>
  /^(\/k\/[^/]+)?\/(map|crawl|research|usage)(\/|\?|$)/.test(path) ||
  (method === 'POST' &&
    (/^(\/k\/[^/]+)?\/extract(\?|$)/.test(path) || (jsonBody && /^(\/k\/[^/]+)?\/search(\?|$)/.test(path))));

/** The Firecrawl shape answers POST /v2/scrape, /v2/search, /v2/map and /v2/crawl, GET and DELETE /v2/crawl/{id}, and every error under /v2 (docs/compat.md). */
export const isFirecrawlCall = (_method: string, path: string): boolean => /^(\/k\/[^/]+)?\/v2(\/|\?|$)/.test(path);

/** Firecrawl's crawl: the start (POST /v2/crawl), or a job's status (GET) or cancel (DELETE /v2/crawl/{id}). */
const firecrawlCrawl = (path: string, method: string): TSchema | undefined => {
  if (/^(\/k\/[^/]+)?\/v2\/crawl(\?|$)/.test(path)) return FirecrawlCrawlResponse;
  if (!/^(\/k\/[^/]+)?\/v2\/crawl\//.test(path)) return undefined;
  return method === 'DELETE' ? FirecrawlCrawlCancelResponse : FirecrawlCrawlStatusResponse;
};

/** The wire schema of a call's answer: `shape` names the compat shape that answers it, when one does. */
export const schemaFor = (
  path: string,
  status: number,
  shape?: 'tavily' | 'firecrawl' | undefined,
  method = 'POST',
): TSchema | undefined => {
  if (shape === 'firecrawl')
    return status >= 400
      ? FirecrawlError
      : status === 200
        ? path.includes('/v2/scrape')
          ? FirecrawlScrapeResponse
          : path.includes('/v2/map')
            ? FirecrawlMapResponse
            : (firecrawlCrawl(path, method) ?? FirecrawlSearchResponse)
        : undefined;
  if (shape === 'tavily')
    return status >= 400
      ? TavilyError
      : status === 200
        ? path.includes('/extract')
          ? TavilyExtractResponse
          : /^(\/k\/[^/]+)?\/map(\?|$)/.test(path)
            ? TavilyMapResponse
            : /^(\/k\/[^/]+)?\/crawl(\?|$)/.test(path)
              ? TavilyCrawlResponse
              : TavilySearchResponse
        : undefined;
  if (status >= 400) return ErrorBody;
  // POST /v1/crawl with async: true, and GET or DELETE /v1/crawl/{id}: a crawl job.
  if ((status === 202 || status === 200) && path.startsWith('/v1/crawl/')) return CrawlJob;
  if (status === 202 && path.startsWith('/v1/crawl')) return CrawlJob;
  if (status !== 200) return undefined;
  if (path.startsWith('/v1/search')) return SearchResponse;
  // The SearXNG shape, with or without a path key (docs/compat.md).
  if (/^(\/k\/[^/]+)?\/search(\?|$)/.test(path)) return SearxngResponse;
  if (path.startsWith('/v1/fetch')) return FetchResponse;
  if (path.startsWith('/v1/map')) return MapResponse;
  if (path.startsWith('/v1/crawl')) return CrawlResponse;
  if (path.startsWith('/v1/usage')) return Usage;
  if (path === '/admin/v1/overview') return AdminOverview;
  if (path === '/admin/v1/keys') return AdminKeyList;
  if (/^\/admin\/v1\/keys\/[^/]+\/revoke$/.test(path)) return AdminKey;
  return undefined;
};
