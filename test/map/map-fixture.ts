import { gzipSync } from 'node:zlib';
import { startFixtureServer, type FixtureServer, type Routes } from '../helpers/fixture-server.ts';

/**
 * Loopback fixture sites for site maps. A route's body may be a function of the site's own
 * origin (known once it listens) and of the other sites', so sitemaps and links can be
 * absolute. Every request is logged by path, per site.
 */

export type Body = string | Uint8Array | ((o: Origins) => string | Uint8Array);
export interface Served {
  status?: number;
  type?: string;
  body?: Body;
  location?: (o: Origins) => string;
  /** Never answers (a slow page). */
  hang?: boolean;
}
export interface Origins {
  self: string;
  [name: string]: string;
}

export interface Site {
  server: FixtureServer;
  origin: string;
  /** Paths requested, in order. */
  log: string[];
}

export const html = (title: string, links: string[] = []): Served => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>${title}</title></head><body><nav>${links
    .map((l) => `<a href="${l}">${l}</a>`)
    .join(' ')}</nav><main><h1>${title}</h1><p>${title}: a page of the fixture site.</p></main></body></html>`,
});

export const urlset = (urls: (string | { loc: string; lastmod: string })[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) =>
      typeof u === 'string'
        ? `<url><loc>${u}</loc></url>`
        : `<url><loc>${u.loc}</loc><lastmod>${u.lastmod}</lastmod></url>`,
    )
    .join('\n')}</urlset>`;

export const sitemapIndex = (urls: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<sitemap><loc>${u}</loc></sitemap>`)
    .join('')}</sitemapindex>`;

export const gzipped = (text: string | Buffer): Uint8Array => gzipSync(text);

/** Starts a site on `host`; `others` gives the origins of sites started before it. */
export async function startMapSite(
  pages: Record<string, Served>,
  host = '127.0.0.2',
  others: Record<string, string> = {},
): Promise<Site> {
  const log: string[] = [];
  const origins: Origins = { self: '', ...others };
  const routes: Routes = {};
  for (const [path, served] of Object.entries(pages)) {
    routes[path] = (req, res) => {
      log.push(req.url ?? path);
      if (served.hang === true) return;
      const headers: Record<string, string> = { 'content-type': served.type ?? 'text/plain; charset=utf-8' };
      if (served.location) headers.location = served.location(origins);
      res.writeHead(served.status ?? 200, headers);
      const body = typeof served.body === 'function' ? served.body(origins) : served.body;
      res.end(body ?? '');
    };
  }
  const server = await startFixtureServer(routes, { host });
  origins.self = server.origin;
  return { server, origin: server.origin, log };
}
