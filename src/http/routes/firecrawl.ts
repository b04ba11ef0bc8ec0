import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ScrapedPage, firecrawlSearchBody } from '../../compat/firecrawl-results.ts';
import { SCRAPE_MAX_CHARS, type ScrapePlan, scrapeDocument, scrapeRequest } from '../../compat/firecrawl-scrape.ts';
import { firecrawlSearchPlan } from '../../compat/firecrawl-search.ts';
import { urlProblem } from '../../compat/tavily-extract.ts';
import { DomainError, isDomainError } from '../../domain/errors.ts';
import type { FetchPage } from '../../fetch/fetch-page.ts';
import type { FetchOutcome } from '../../fetch/fetch-service.ts';
import {
  FirecrawlError,
  FirecrawlScrapeBody,
  FirecrawlScrapeResponse,
  FirecrawlSearchBody,
  FirecrawlSearchResponse,
} from '../../schemas/firecrawl.ts';
import type { RequestContext, SearchService } from '../../search/search-service.ts';
import { clientGone } from '../client-gone.ts';
import { underPathKey } from '../path-key.ts';
import { okResponse, RATE_HEADERS } from './error-responses.ts';
import { reasonOf } from './tavily.ts';

export interface FirecrawlRouteOptions {
  search: SearchService;
  fetch: FetchPage;
  /** SCOUT_COMPAT_SPONSORED names firecrawl. */
  sponsored: boolean;
  /** SCOUT_PATH_KEYS: also under /k/:key/v2/…. */
  pathKeys: boolean;
}

const STATUS: Record<number, string> = {
  400: 'Invalid request, or a format or option Scout cannot honour (the message names it).',
  401: 'Missing, unknown or revoked API key.',
  402: "The monthly search budget is exhausted (Firecrawl's payment required); Retry-After says when it resets.",
  403: 'Refused: private, loopback or reserved address.',
  408: "A page (a map's: its start's robots.txt) was not read within the timeout asked for, or within Scout's fetch deadline.",
  413: 'Request body too large.',
  404: "No crawl job with that id for this key (another key's job is answered as none), or it has expired.",
  415: 'The page is of a type with no text to read.',
  429: 'Rate limited, or (POST /v2/crawl) the key has as many crawl jobs queued or running as it may; see the Retry-After header (seconds).',
  502: 'The site, or every search provider, failed.',
  503: 'Backend or fetch capacity unavailable.',
};

/** Firecrawl's error body for each status, for OpenAPI (the error handler writes them). */
export const firecrawlErrorResponses = (statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((s) => [s, { ...FirecrawlError, description: STATUS[s] ?? 'Error' }]));

/** Added to the missing-key message of the /v2 routes. */
export const firecrawlKeyHint = (pathKeys: boolean): string =>
  pathKeys
    ? '; the Firecrawl SDK sends "Authorization: Bearer <apiKey>", or carry the key in the base URL: /k/<key> (docs/compat.md)'
    : '; the Firecrawl SDK sends "Authorization: Bearer <apiKey>": give it the key as apiKey';

/** One registration of a /v2 route: bare, and under a path key when SCOUT_PATH_KEYS is on. */
export interface FirecrawlVariant {
  /** '' or '/k/:key'. */
  prefix: string;
  pathKey: boolean;
  config: {
    auth: true;
    pathKey: boolean;
    firecrawlErrors: true;
    missingKeyHint: string;
    compatShape: 'firecrawl';
  };
  /** The schema fields every /v2 route shares; the path-key copies are left out of /openapi.json (a key is not a path parameter to advertise). */
  common: { tags: string[]; hide?: true };
  /** The operationId of this variant (`name`, or `namePathKey`). */
  op(name: string): string;
}

/** The variants every /v2 route is registered in, with their config and shared schema fields. */
export function firecrawlVariants(pathKeys: boolean): FirecrawlVariant[] {
  const hint = firecrawlKeyHint(pathKeys);
  const variant = (prefix: string, pathKey: boolean): FirecrawlVariant => ({
    prefix,
    pathKey,
    config: { auth: true, pathKey, firecrawlErrors: true, missingKeyHint: hint, compatShape: 'firecrawl' },
    common: { tags: ['firecrawl'], ...(pathKey ? { hide: true as const } : {}) },
    op: (name) => (pathKey ? `${name}PathKey` : name),
  });
  return pathKeys ? [variant('', false), variant(underPathKey(''), true)] : [variant('', false)];
}

/**
 * Reads one page for the Firecrawl shape through the same fetch service as /v1/fetch. A
 * `timeout` shorter than Scout's fetch deadline ends the read early, as a 408 naming it; a
 * longer one changes nothing (Scout's deadline still applies).
 */
async function readPage(
  fetch: FetchPage,
  url: string,
  plan: ScrapePlan,
  ctx: RequestContext,
  timeoutMs: number | undefined,
): Promise<FetchOutcome> {
  const problem = urlProblem(url);
  if (problem !== undefined) throw new DomainError('invalid', `url is ${problem}`);
  const want = { raw: plan.formats.has('rawHtml'), facts: true };
  if (timeoutMs === undefined) return fetch.read({ url, maxChars: SCRAPE_MAX_CHARS, want }, ctx);
  const late = new DomainError('timeout', `the page was not read within the timeout of ${Math.round(timeoutMs)} ms`);
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(late), Math.max(0, timeoutMs));
  try {
    return await fetch.read({ url, maxChars: SCRAPE_MAX_CHARS, want, signal: timer.signal }, ctx);
  } catch (e) {
    throw timer.signal.aborted && isDomainError(e) && e.kind === 'timeout' ? late : e;
  } finally {
    clearTimeout(t);
  }
}

/**
 * The Firecrawl v2 shape (docs/compat.md): POST /v2/scrape over the fetch service, POST
 * /v2/search over the search service, behind the same key, rate limit, budget and address
 * policy as /v1, errors as `{"success":false,"error":…}`.
 */
export function firecrawlRoutes(app: FastifyInstance, o: FirecrawlRouteOptions): void {
  const scrape = async (request: FastifyRequest, reply: FastifyReply): Promise<FirecrawlScrapeResponse> => {
    const { url, plan } = scrapeRequest(request.body);
    const ctx = { ...request.ctx, signal: clientGone(reply) };
    const page = await readPage(o.fetch, url, plan, ctx, plan.timeoutMs);
    return { success: true, data: scrapeDocument(plan, page) };
  };

  const search = async (request: FastifyRequest, reply: FastifyReply): Promise<FirecrawlSearchResponse> => {
    const plan = firecrawlSearchPlan(request.body);
    const outcome = await o.search.run(plan.request, request.ctx, { sponsored: o.sponsored });
    reply.header('x-scout-provider', outcome.providers.join(','));
    const scrapePlan = plan.scrape;
    if (scrapePlan === undefined) return firecrawlSearchBody(plan, outcome);
    // Each organic result's page, at once: the fetch capacity queues them in the key's fair
    // share, as it queues /extract's. Ads are not read (their URL is a click URL).
    const ctx = { ...request.ctx, signal: clientGone(reply) };
    const organic = outcome.body.results.filter((r) => r.type === 'organic');
    const left =
      plan.timeoutMs === undefined ? undefined : plan.timeoutMs - (performance.now() - request.ctx.startedAt);
    const each = [left, scrapePlan.timeoutMs].filter((t): t is number => t !== undefined);
    const timeoutMs = each.length === 0 ? undefined : Math.min(...each);
    const pages = await Promise.all(
      organic.map(async (r): Promise<ScrapedPage> => {
        try {
          return { doc: scrapeDocument(scrapePlan, await readPage(o.fetch, r.url, scrapePlan, ctx, timeoutMs)) };
        } catch (e) {
          return { error: reasonOf(e) };
        }
      }),
    );
    return firecrawlSearchBody(plan, outcome, pages);
  };

  app.register(async (scope) => {
    for (const { prefix, config, common, op } of firecrawlVariants(o.pathKeys)) {
      // The bodies are read by src/compat/firecrawl-*.ts, which word their errors: no schema validation here.
      const lenient = { validatorCompiler: () => () => true };
      scope.post(
        `${prefix}/v2/scrape`,
        {
          config,
          schema: {
            ...common,
            operationId: op('firecrawlScrape'),
            summary: 'read a page, answered in the Firecrawl v2 scrape shape',
            body: FirecrawlScrapeBody,
            response: {
              200: okResponse(
                FirecrawlScrapeResponse,
                'The page in the formats asked for, with its metadata.',
                RATE_HEADERS,
              ),
              ...firecrawlErrorResponses([400, 401, 403, 408, 413, 415, 429, 502, 503]),
            },
          },
          ...lenient,
        },
        scrape,
      );
      scope.post(
        `${prefix}/v2/search`,
        {
          config,
          schema: {
            ...common,
            operationId: op('firecrawlSearch'),
            summary: 'search, answered in the Firecrawl v2 search shape',
            body: FirecrawlSearchBody,
            response: {
              200: okResponse(
                FirecrawlSearchResponse,
                'Web results: sponsored entries first, labelled in title and description, then organic results in /v1 order.',
                { ...RATE_HEADERS, 'x-scout-provider': { type: 'string', description: 'Provider(s) that answered.' } },
              ),
              ...firecrawlErrorResponses([400, 401, 402, 413, 429, 502, 503]),
            },
          },
          ...lenient,
        },
        search,
      );
    }
  });
}
