import { join } from 'node:path';
import type { SponsoredStores } from '../sponsored-ports.ts';
import { migrate, openDatabase } from './open-database.ts';
import { createSqliteAdEventStore } from './sqlite-ad-event-store.ts';
import { createSqliteCampaignStore } from './sqlite-campaign-store.ts';
import { sponsoredMigrations } from './sponsored-migrations.ts';

/** Path of the sponsored store inside the data folder. */
export const sponsoredStoreFile = (dataDir: string): string => join(dataDir, 'sponsored.db');

/** Opens (creating and migrating) `<dataDir>/sponsored.db`; the CLI and the server share it. */
export function openSponsoredStore(dataDir: string): SponsoredStores {
  const db = openDatabase(sponsoredStoreFile(dataDir));
  migrate(db, sponsoredMigrations);
  return {
    campaigns: createSqliteCampaignStore(db),
    events: createSqliteAdEventStore(db),
    async close() {
      db.close();
    },
  };
}
