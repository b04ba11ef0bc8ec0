import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.ts';
import { PATH_KEY_PREFIX, redactPathKey } from './path-key.ts';

/** '/v1/r/:rec_id' → a regex matching its concrete paths ('/v1/r/rec_abc'). */
const pathPattern = (url: string): RegExp =>
  new RegExp(
    `^${url
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

/** Firecrawl's v2 paths, with or without a path key (redacted). */
const FIRECRAWL_PATH = /^(?:\/k\/\[redacted\])?\/v2(?:\/|$)/;
/** Tavily's root paths besides /search and /extract: /map and /crawl (served: their 405s), and those Scout does not serve. */
const TAVILY_PATH = /^(?:\/k\/\[redacted\])?\/(?:map|crawl|research|usage)(?:\/|$)/;

/**
 * Fastify answers an unknown method on a known path with 404; the caller is better served
 * by 405 and an Allow header. onRoute records each route's methods for the not-found handler.
 */
export function registerNotFound(app: FastifyInstance): void {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const entry = routes.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set<string>() };
    for (const m of [route.method].flat()) entry.methods.add(m);
    routes.set(route.url, entry);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    // The path is quoted back without a key it may carry (path-key.ts).
    const shown = redactPathKey(path).slice(0, 200);
    // Firecrawl's clients read `error` as a string: under /v2 the answer is in their shape.
    const firecrawl = FIRECRAWL_PATH.test(shown);
    // Tavily's clients read detail.error: its unserved paths answer in that shape.
    const tavily = TAVILY_PATH.test(shown);
    const send = (r: { status: number; message: string }) =>
      sendError(
        reply,
        r,
        firecrawl
          ? JSON.stringify({ success: false, error: r.message })
          : tavily
            ? JSON.stringify({ detail: { error: r.message } })
            : undefined,
      );
    const allowed = new Set<string>();
    for (const { pattern, methods } of routes.values()) if (pattern.test(path)) for (const m of methods) allowed.add(m);
    if (allowed.size > 0) {
      const list = [...allowed].sort().join(', ');
      reply.header('allow', list);
      return send({
        status: 405,
        message: `method ${request.method} is not allowed on ${shown}; use ${list}`,
      });
    }
    const pathKeysOff =
      shown.startsWith(PATH_KEY_PREFIX) && ![...routes.keys()].some((url) => url.startsWith(PATH_KEY_PREFIX));
    return send({
      status: 404,
      message: pathKeysOff
        ? `no route ${request.method} ${shown}: keys in the path are off on this server (the operator turns them on with SCOUT_PATH_KEYS=true); send the key in an Authorization or x-api-key header`
        : firecrawl
          ? `no route ${request.method} ${shown}: of Firecrawl's v2 API Scout serves POST /v2/scrape, POST /v2/search, POST /v2/map, and POST /v2/crawl with GET and DELETE /v2/crawl/{id} only (no extract or batch jobs, no crawl errors or active list; docs/compat.md)`
          : tavily
            ? `no route ${request.method} ${shown}: of Tavily's API Scout serves POST /search, POST /extract, POST /map and POST /crawl only (no research or usage; docs/compat.md)`
            : `no route ${request.method} ${shown}; the API is POST /v1/search, GET /v1/search and POST /v1/fetch (see /openapi.json)`,
    });
  });
}
