import { startFixtureServer, type FixtureServer, type Routes, type StaticRoute } from '../../helpers/fixture-server.ts';

/**
 * Fixture sites for crawl tests: every request to a defined path is logged with its host and
 * the (monotonic) times it arrived and was answered, into a log shared by all sites of a test,
 * so tests can check per-host spacing and requests in flight. Answers come after `latencyMs`,
 * which gives overlapping requests time to show up. Undefined paths answer 404 (they appear
 * in `server.requests`, not in the log).
 */

export interface LoggedRequest {
  host: string;
  origin: string;
  path: string;
  start: number;
  end: number;
}

export interface RequestLog {
  entries: LoggedRequest[];
  /** Most requests seen in flight at once, per host and overall. */
  maxInFlightPerHost: Map<string, number>;
  maxInFlight: number;
  inFlight: Map<string, number>;
  total: number;
}

export const newLog = (): RequestLog => ({
  entries: [],
  maxInFlightPerHost: new Map(),
  maxInFlight: 0,
  inFlight: new Map(),
  total: 0,
});

export type Page = string | StaticRoute;

const html = (body: string): StaticRoute => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body,
});

/** An HTML page with a title, some text and links. */
export function page(title: string, links: string[] = [], extra = ''): string {
  const anchors = links.map((href, i) => `<li><a href="${href}">link ${i + 1}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title>${extra}</head><body><nav><ul>${anchors}</ul></nav>
<main><h1>${title}</h1><p>${title} is a page about lighthouse keeping, with enough words to be worth indexing.</p></main></body></html>`;
}

export async function startSite(
  pages: Record<string, Page>,
  log: RequestLog,
  options: { host?: string; latencyMs?: number } = {},
): Promise<FixtureServer> {
  const host = options.host ?? '127.0.0.2';
  const { inFlight } = log;
  let origin = '';
  const routes: Routes = {};
  for (const [path, content] of Object.entries(pages)) {
    const route = typeof content === 'string' ? html(content) : content;
    routes[path] = (req, res) => {
      const entry: LoggedRequest = { host, origin, path: req.url ?? path, start: performance.now(), end: Number.NaN };
      log.entries.push(entry);
      const now = (inFlight.get(host) ?? 0) + 1;
      inFlight.set(host, now);
      log.maxInFlightPerHost.set(host, Math.max(log.maxInFlightPerHost.get(host) ?? 0, now));
      log.total += 1;
      log.maxInFlight = Math.max(log.maxInFlight, log.total);
      res.once('close', () => {
        entry.end = performance.now();
        inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
        log.total -= 1;
      });
      setTimeout(() => {
        res.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/plain; charset=utf-8' });
        res.end(route.body ?? '');
      }, options.latencyMs ?? 0);
    };
  }
  const server = await startFixtureServer(routes, { host });
  origin = server.origin;
  return server;
}
