import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/**
 * The dashboard's page at /admin (docs/operations.md, "The dashboard"): static files that
 * hold no data (the page asks for the admin token and sends it only to /admin/v1/*), served
 * only when SCOUT_ADMIN_TOKEN is set. Read once at start: they are part of the release.
 */
const PAGE_DIR = new URL('../../admin/page/', import.meta.url);
const require = createRequire(import.meta.url);

const FILES: Record<string, { from: URL | string; type: string }> = {
  '/admin': { from: new URL('index.html', PAGE_DIR), type: 'text/html; charset=utf-8' },
  '/admin/dashboard.js': { from: new URL('dashboard.js', PAGE_DIR), type: 'text/javascript; charset=utf-8' },
  '/admin/dashboard.css': { from: new URL('dashboard.css', PAGE_DIR), type: 'text/css; charset=utf-8' },
  // uPlot draws the time plots: one small file, no build step.
  '/admin/vendor/uPlot.iife.min.js': {
    from: require.resolve('uplot/dist/uPlot.iife.min.js'),
    type: 'text/javascript; charset=utf-8',
  },
  '/admin/vendor/uPlot.min.css': { from: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
};

/** Only what the page itself loads; no inline script or style, no framing. */
export const ADMIN_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export function adminPageRoutes(app: FastifyInstance, o: { token: string | undefined }): void {
  if (o.token === undefined) return;
  for (const [path, file] of Object.entries(FILES)) {
    const body = readFileSync(file.from);
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(file.type)
        .header('content-security-policy', ADMIN_PAGE_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .send(body),
    );
  }
}
