import type pg from 'pg';
import type { AdEventStore, BudgetStore, CampaignStore, CrawlJobStore, KeyStore, SecretStore } from '../ports.ts';
import { createPostgresAdEventStore } from './pg-ad-event-store.ts';
import { createPostgresBudgetStore } from './pg-budget-store.ts';
import { createPostgresCampaignStore } from './pg-campaign-store.ts';
import { createPostgresCrawlJobStore } from './pg-crawl-job-store.ts';
import { createPostgresSecretStore } from './pg-secret-store.ts';
import { createPostgresKeyStore, type PostgresKeyStoreOptions } from './pg-key-store.ts';

export interface PostgresStores {
  keys: KeyStore;
  budget: BudgetStore;
  campaigns: CampaignStore;
  events: AdEventStore;
  secrets: SecretStore;
  crawlJobs: CrawlJobStore;
  /** Throws when PostgreSQL cannot answer (for /healthz). */
  ping(): Promise<void>;
  /** Stops the key store's listening connection; the pool is the caller's to end. */
  close(): Promise<void>;
}

/**
 * The durable ports on a pool from openPostgres(), whose schema migrate() has brought up to
 * date. No rate limiter here: that is Redis's, or the caller's fallback.
 */
export function openPostgresStores(pool: pg.Pool, options: PostgresKeyStoreOptions): PostgresStores {
  const keys = createPostgresKeyStore(pool, options);
  return {
    keys,
    budget: createPostgresBudgetStore(pool),
    campaigns: createPostgresCampaignStore(pool),
    events: createPostgresAdEventStore(pool),
    secrets: createPostgresSecretStore(pool),
    crawlJobs: createPostgresCrawlJobStore(pool),
    async ping() {
      await pool.query('SELECT 1');
    },
    close: () => keys.close(),
  };
}
