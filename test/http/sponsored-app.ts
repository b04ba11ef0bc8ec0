import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKeys } from '../../src/keys/api-keys.ts';
import { AJV_OPTIONS } from '../../src/schemas/ajv-options.ts';
import { registerAuth } from '../../src/http/auth.ts';
import { makeErrorHandler } from '../../src/http/error-handler.ts';
import { registerNotFound } from '../../src/http/method-not-allowed.ts';
import { adminCampaignRoutes } from '../../src/http/routes/admin-campaigns.ts';
import { clickRoutes } from '../../src/http/routes/click.ts';
import { createStores } from '../../src/store/create-stores.ts';
import type { SponsoredOptions } from '../../src/sponsored/create-sponsored.ts';
import { sponsoredHarness, type SponsoredHarness } from '../sponsored/sponsored-fixture.ts';

export const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

export interface SponsoredApp {
  app: FastifyInstance;
  h: SponsoredHarness;
  /** A real API key of this app (which must never open the admin API). */
  apiKey: string;
  close(): Promise<void>;
}

/**
 * The app's HTTP plumbing as src/app.ts sets it up (strict Ajv, the error handler, 404/405,
 * API-key auth), with the sponsored routes registered the way the lead wires them.
 */
/** `adminToken: null` leaves SCOUT_ADMIN_TOKEN unset; `options` go to the harness (a stub resolver by default). */
export async function sponsoredApp(
  adminToken: string | null = ADMIN_TOKEN,
  options: Partial<SponsoredOptions> = {},
): Promise<SponsoredApp> {
  const h = sponsoredHarness(options);
  const root = mkdtempSync(join(tmpdir(), 'scout-sp-app-'));
  const stores = createStores({ dataDir: root, rateLimitRpm: 1000 });
  const keys = createApiKeys(stores.keys);
  const app = Fastify({
    logger: false,
    ajv: { customOptions: { ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords] } },
  });
  app.setErrorHandler(makeErrorHandler(65_536));
  registerNotFound(app);
  registerAuth(app, keys, stores.rateLimiter);
  clickRoutes(app, h.sponsored.clicks);
  adminCampaignRoutes(app, { token: adminToken ?? undefined, admin: h.sponsored.admin });
  await app.ready();
  const apiKey = (await keys.create('test')).key;
  return {
    app,
    h,
    apiKey,
    async close() {
      await app.close();
      await h.close();
      await stores.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
