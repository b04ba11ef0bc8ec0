import type { Activity } from '../admin/activity.ts';
import { readOverview } from '../admin/admin-overview.ts';
import { createKeyAdmin, type KeyAdmin } from '../admin/key-admin.ts';
import type { KeyUsageRecorder } from '../keys/key-usage-recorder.ts';
import type { ManagedSearchBackend } from '../providers/registry.ts';
import type { AdminOverview } from '../schemas/admin.ts';
import type { SearchBudget } from '../search/search-budget.ts';
import type { Sponsored } from '../sponsored/create-sponsored.ts';
import type { Storage } from './assemble-storage.ts';

export interface Admin {
  /** The keys with their usage, and revoking one (usage written first, so it is current). */
  keys: KeyAdmin;
  /** One snapshot of everything the dashboard shows. */
  overview(): Promise<AdminOverview>;
}

/** The operator dashboard's sources (/admin and /admin/v1/*). */
export function assembleAdmin(deps: {
  storage: Storage;
  keyUsage: KeyUsageRecorder;
  activity: Activity;
  budget: SearchBudget;
  backend: ManagedSearchBackend;
  sponsored: Sponsored;
}): Admin {
  const { storage, keyUsage, activity, budget, backend, sponsored } = deps;
  const keys = createKeyAdmin(storage.stores.keys, { flush: () => keyUsage.flush() });
  return {
    keys,
    overview: () =>
      readOverview({
        activity,
        storage: storage.mode,
        budget: () => budget.usage(),
        keys,
        providers: () => backend.status(),
        index: storage.index,
        campaigns: async () => (await sponsored.admin.report()).campaigns,
      }),
  };
}
