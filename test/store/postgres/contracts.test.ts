import type pg from 'pg';
import type { CrawlJobStore } from '../../../src/store/ports.ts';
import { afterAll, beforeAll, describe } from 'vitest';
import { migrate } from '../../../src/store/postgres/migrate.ts';
import { openPostgres } from '../../../src/store/postgres/open-postgres.ts';
import { openPostgresStores, type PostgresStores } from '../../../src/store/postgres/open-postgres-stores.ts';
import { createPostgresIndexStore } from '../../../src/store/postgres/pg-index-store.ts';
import { createPostgresRateLimiter } from '../../../src/store/postgres/pg-rate-limiter.ts';
import { adEventStoreContract } from '../contract/ad-event-store.ts';
import { budgetStoreContract } from '../contract/budget-store.ts';
import { campaignStoreContract } from '../contract/campaign-store.ts';
import { crawlJobStoreContract } from '../contract/crawl-job-store.ts';
import { indexDocumentStoreContract } from '../contract/index-document-store.ts';
import { keyStoreContract } from '../contract/key-store.ts';
import { rateLimiterContract } from '../contract/rate-limiter.ts';
import { secretStoreContract } from '../contract/secret-store.ts';
import { createPostgresSecretStore } from '../../../src/store/postgres/pg-secret-store.ts';
import { createPostgresCrawlJobStore } from '../../../src/store/postgres/pg-crawl-job-store.ts';
import { randomSchemaName, testSchema } from '../../helpers/postgres.ts';

/**
 * Every port's contract on PostgreSQL: one migrated schema, shared (the contracts' tests tag
 * their rows); the index document store, whose contract wants an empty store, gets a schema
 * per test, and the crawl-job table is emptied before each of its contract's tests.
 */
const db = testSchema();

describe.skipIf(!db)('PostgreSQL backends', () => {
  let stores: PostgresStores;
  beforeAll(async () => {
    await migrate(db!.pool, db!.schema);
    stores = openPostgresStores(db!.pool, { schema: db!.schema });
  });
  afterAll(async () => {
    await stores?.close();
    await db?.drop();
  });

  keyStoreContract('postgres', async () => stores.keys);
  budgetStoreContract('postgres', async () => stores.budget);
  campaignStoreContract('postgres', async () => stores.campaigns);
  adEventStoreContract('postgres', async () => stores);
  rateLimiterContract('postgres', async (perMinute) => createPostgresRateLimiter(db!.pool, perMinute));
  // Two pools: two replicas.
  secretStoreContract('postgres', async () => [stores.secrets, createPostgresSecretStore(db!.another(2))]);
  // Two pools: two replicas. A claim takes from every job of the schema, so each test starts
  // on an emptied table (no other suite of this file uses it).
  let otherJobs: CrawlJobStore | undefined;
  crawlJobStoreContract('postgres', async () => {
    await db!.pool.query('TRUNCATE crawl_jobs');
    otherJobs ??= createPostgresCrawlJobStore(db!.another(4));
    return [stores.crawlJobs, otherJobs];
  });

  const indexSchemas: { schema: string; pool: pg.Pool }[] = [];
  indexDocumentStoreContract(
    'postgres',
    async () => {
      const schema = randomSchemaName();
      const pool = openPostgres({ url: db!.url, schema });
      indexSchemas.push({ schema, pool });
      await migrate(pool, schema);
      return createPostgresIndexStore(pool);
    },
    {
      cleanup: async () => {
        for (const { schema, pool } of indexSchemas.splice(0)) {
          await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await pool.end();
        }
      },
    },
  );
});
