import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SEARXNG_READ, searxngPlan, type SearxngParamValues } from '../../compat/searxng-request.ts';
import { emptySearxngBody, searxngBody } from '../../compat/searxng-response.ts';
import { DomainError } from '../../domain/errors.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { SearxngParams, SearxngResponse } from '../../schemas/searxng.ts';
import { TavilySearchBody, TavilySearchResponse } from '../../schemas/tavily.ts';
import type { RequestContext, SearchService } from '../../search/search-service.ts';
import { isJsonRequest } from '../auth.ts';
import { registerFormBody } from '../form-body.ts';
import { registerJsonBody } from '../json-body.ts';
import { underPathKey } from '../path-key.ts';
import { assertDecodableParams } from '../query-encoding.ts';
import { errorResponses, okResponse, RATE_HEADERS } from './error-responses.ts';
import { TAVILY_KEY_HINT, tavilyErrorResponses, type tavilySearch } from './tavily.ts';

export interface SearxngRouteOptions {
  search: SearchService;
  /** SCOUT_COMPAT_SPONSORED names searxng. */
  sponsored: boolean;
  /** SCOUT_PATH_KEYS: also under /k/:key/search. */
  pathKeys: boolean;
  /** A JSON body on POST /search: the Tavily search (src/http/routes/tavily.ts). */
  tavily: ReturnType<typeof tavilySearch>;
}

const ok = okResponse(
  SearxngResponse,
  'SearXNG JSON: sponsored entries first, labelled in title and content, then organic results in /v1 order.',
  {
    ...RATE_HEADERS,
    'x-scout-provider': { type: 'string', description: 'Provider(s) that answered, comma-separated.' },
  },
);
/** POST /search answers either shape, by the body's type. */
const postOk = okResponse(
  Type.Union([SearxngResponse, TavilySearchResponse]),
  'SearXNG JSON for a form, the Tavily answer for a JSON body: sponsored entries first, labelled in title and content, then organic results in /v1 order.',
  {
    ...RATE_HEADERS,
    'x-scout-provider': { type: 'string', description: 'Provider(s) that answered, comma-separated.' },
  },
);
const errors = (statuses: number[]) => errorResponses(ErrorBody, statuses);
const FORM = 'application/x-www-form-urlencoded';

/** Only the parameters read must decode; an ignored one may be anything. */
const checkQuery = async (request: FastifyRequest): Promise<void> => {
  const start = request.url.indexOf('?');
  if (start >= 0) assertDecodableParams(request.url.slice(start + 1), SEARXNG_READ);
};

/** Every body type but a form (SearXNG) or JSON (Tavily) is refused here. */
const refuseBodyType = (): DomainError =>
  new DomainError(
    'unsupported_media',
    `POST /search takes a SearXNG form (Content-Type: ${FORM}) or a Tavily JSON body (Content-Type: application/json)`,
  );

/**
 * The SearXNG shape (docs/compat.md): GET /search and its form POST, translated onto the same
 * search service as /v1 (src/compat), behind the same key, rate limit and budget.
 */
export function searxngRoutes(app: FastifyInstance, o: SearxngRouteOptions): void {
  const hint = o.pathKeys
    ? '; a client that can only hold a URL can carry the key in its path: /k/<key>/search (docs/compat.md)'
    : '; a client that can only hold a URL needs path keys, which the operator turns on with SCOUT_PATH_KEYS=true (docs/compat.md)';

  /** The page the parameters ask for, and the providers that answered it (none for an empty page). */
  const answer = async (params: SearxngParamValues, ctx: RequestContext) => {
    const plan = searxngPlan(params);
    // A page past what Scout serves is empty, as SearXNG's own past its engines' last page;
    // it runs no search, so it costs no budget unit.
    if (plan.request === undefined) return { body: emptySearxngBody(plan.query), providers: undefined };
    // Sponsored entries go on the first page only: a second page is the same search again.
    const outcome = await o.search.run(plan.request, ctx, { sponsored: o.sponsored && plan.page === 1 });
    return { body: searxngBody(plan, outcome), providers: outcome.providers };
  };
  const send = async (params: SearxngParamValues, request: FastifyRequest, reply: FastifyReply) => {
    const { body, providers } = await answer(params, request.ctx);
    if (providers !== undefined) reply.header('x-scout-provider', providers.join(','));
    return body;
  };

  // Its own scope: the form parser and the refusal of other bodies stay off the /v1 routes.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    registerFormBody(scope, SEARXNG_READ);
    registerJsonBody(scope, { emptyIsNone: true });
    scope.addContentTypeParser('*', (_request, _payload, done) => done(refuseBodyType()));

    const routes = [{ url: '/search', pathKey: false }];
    if (o.pathKeys) routes.push({ url: underPathKey('/search'), pathKey: true });
    for (const { url, pathKey } of routes) {
      const config = { auth: true, pathKey, missingKeyHint: hint, compatShape: 'searxng' as const };
      // POST: a JSON body is the Tavily shape, its key possibly in the body, its errors in Tavily's form.
      const postConfig = {
        ...config,
        bodyKey: true,
        tavilyErrors: 'json-body' as const,
        missingKeyHint: hint + TAVILY_KEY_HINT,
      };
      // The path-key copies are left out of /openapi.json: a key is not a path parameter to advertise.
      const common = { tags: ['searxng'], ...(pathKey ? { hide: true } : {}) };
      scope.get<{ Querystring: SearxngParamValues }>(
        url,
        {
          config,
          schema: {
            ...common,
            operationId: pathKey ? 'searxngSearchPathKey' : 'searxngSearch',
            summary: 'search, answered in the SearXNG JSON shape',
            querystring: SearxngParams,
            response: { 200: ok, ...errors([400, 401, 429, 502, 503]) },
          },
          // HEAD would run (and charge) a whole search to send no body: 405 instead.
          exposeHeadRoute: false,
          preValidation: checkQuery,
        },
        async (request, reply) => send(request.query, request, reply),
      );
      scope.post<{ Querystring: SearxngParamValues; Body: SearxngParamValues }>(
        url,
        {
          config: postConfig,
          schema: {
            ...common,
            tags: ['searxng', 'tavily'],
            operationId: pathKey ? 'searxngSearchFormPathKey' : 'searxngSearchForm',
            summary:
              'search from a SearXNG form (answered in the SearXNG JSON shape) or a Tavily JSON body (answered in the Tavily shape, errors as {"detail":{"error":…}} with 432 for the exhausted budget)',
            consumes: [FORM, 'application/json'],
            body: Type.Union([SearxngParams, TavilySearchBody]),
            response: {
              200: postOk,
              ...errors([400, 401, 413, 429, 502, 503]),
              415: {
                ...ErrorBody,
                description: 'A body that is neither a form nor JSON.',
                headers: RATE_HEADERS,
              },
              ...tavilyErrorResponses([432]),
            },
          },
          preValidation: async (request) => {
            await checkQuery(request);
            // No body at all is an empty form: the parameters may all be in the query string.
            request.body ??= {};
          },
        },
        // SearXNG reads the query string too on a POST; a form field wins over it. Each answer
        // is serialized with its own shape's schema, set once it is ready (an error keeps the
        // error handler's): the route's union, there for OpenAPI, would make
        // fast-json-stringify try each member on every answer.
        async (request, reply) => {
          const tavily = isJsonRequest(request);
          const body = tavily
            ? await o.tavily(request, reply)
            : await send({ ...request.query, ...request.body }, request, reply);
          reply.type('application/json; charset=utf-8');
          return reply.serializeInput(body, tavily ? TavilySearchResponse : SearxngResponse, '200');
        },
      );
    }
  });
}
