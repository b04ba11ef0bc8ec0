import type { CampaignRecord, CampaignStore } from '../ports.ts';
import { byText } from './by-text.ts';

/** What a read of a campaign's impression is charged from. */
export interface CampaignPricing {
  bidMicros: number;
  budgetMicros: number;
  dailyCapMicros: number | null;
}

export interface MemoryCampaignStore extends CampaignStore {
  /**
   * Pricing of any campaign ever inserted, deleted ones included (an impression shown before
   * a delete is still paid for); undefined for an id never inserted.
   */
  pricing(id: string): CampaignPricing | undefined;
}

interface Row {
  record: CampaignRecord;
  deletedAt: string | null;
}

const copy = (c: CampaignRecord): CampaignRecord => structuredClone(c);

/**
 * Campaigns in process memory: the reference CampaignStore, mirroring the SQLite one. A
 * deleted campaign keeps its row, so its id stays taken and its reads are still charged;
 * the version moves on every change that took effect, never on reads.
 */
export function createMemoryCampaignStore(): MemoryCampaignStore {
  const rows = new Map<string, Row>();
  let version = 0;
  const live = (id: string): Row | undefined => {
    const row = rows.get(id);
    return row && row.deletedAt === null ? row : undefined;
  };
  return {
    async insert(c) {
      if (rows.has(c.id)) throw new Error(`campaign ${c.id} exists`);
      rows.set(c.id, { record: copy(c), deletedAt: null });
      version++;
    },
    async replace(c) {
      const row = live(c.id);
      if (!row) return false;
      row.record = { ...copy(c), id: row.record.id, createdAt: row.record.createdAt };
      version++;
      return true;
    },
    async setStatus(id, status, at) {
      const row = live(id);
      if (!row) return undefined;
      row.record = { ...row.record, status, updatedAt: at };
      version++;
      return copy(row.record);
    },
    async delete(id, at) {
      const row = live(id);
      if (!row) return false;
      row.deletedAt = at;
      row.record = { ...row.record, updatedAt: at };
      version++;
      return true;
    },
    async get(id) {
      const row = live(id);
      return row && copy(row.record);
    },
    async list() {
      return [...rows.values()]
        .filter((r) => r.deletedAt === null)
        .map((r) => r.record)
        .sort((a, b) => byText(a.createdAt, b.createdAt) || byText(a.id, b.id))
        .map(copy);
    },
    async version() {
      return version;
    },
    pricing(id) {
      const c = rows.get(id)?.record;
      return c && { bidMicros: c.bidMicros, budgetMicros: c.budgetMicros, dailyCapMicros: c.dailyCapMicros };
    },
  };
}
