import { join } from 'node:path';
import type { SponsoredStores } from '../ports.ts';
import { migrate, openDatabase } from './open-database.ts';
import { createWorkerEventWriter } from './ad-event-writer.ts';
import { createSqliteAdEventStore } from './sqlite-ad-event-store.ts';
import { createSqliteCampaignStore } from './sqlite-campaign-store.ts';
import { createSqliteSecretStore } from './sqlite-secret-store.ts';
import { sponsoredMigrations } from './sponsored-migrations.ts';

/** Path of the sponsored store inside the data folder. */
export const sponsoredStoreFile = (dataDir: string): string => join(dataDir, 'sponsored.db');

/** Opens (creating and migrating) `<dataDir>/sponsored.db`; the CLI and the server share it. */
export function openSponsoredStore(dataDir: string): SponsoredStores {
  const file = sponsoredStoreFile(dataDir);
  const db = openDatabase(file);
  migrate(db, sponsoredMigrations);
  const events = createSqliteAdEventStore(db);
  const writer = createWorkerEventWriter(file, events);
  return {
    campaigns: createSqliteCampaignStore(db),
    events: { ...events, write: (batch) => writer.write(batch) },
    secrets: createSqliteSecretStore(db),
    async close() {
      await writer.close();
      db.close();
    },
  };
}
