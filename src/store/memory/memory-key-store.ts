import { ANONYMOUS_USAGE_ID } from '../../domain/anonymous-caller.ts';
import type { ApiKeyRecord, KeyStore, KeyUsage } from '../ports.ts';
import { withIsoTimes } from '../usage-times.ts';
import { byText } from './by-text.ts';

/**
 * Keys in process memory: the reference KeyStore. Like the SQLite table, a repeated id or
 * hash is refused, and records are handed out as copies. Usage deltas of ids that are not
 * keys are dropped, as the SQL stores' WHERE EXISTS drops them (but the anonymous tier's
 * aggregate, ANONYMOUS_USAGE_ID).
 */
export function createMemoryKeyStore(): KeyStore {
  const byId = new Map<string, ApiKeyRecord>();
  const idByHash = new Map<string, string>();
  const usageById = new Map<string, KeyUsage>();
  return {
    async insert(r) {
      if (byId.has(r.id)) throw new Error(`api key ${r.id} exists`);
      if (idByHash.has(r.hash)) throw new Error('an api key with this hash exists');
      byId.set(r.id, { id: r.id, name: r.name, hash: r.hash, createdAt: r.createdAt, revokedAt: null });
      idByHash.set(r.hash, r.id);
    },
    async findByHash(hash) {
      const id = idByHash.get(hash);
      const record = id === undefined ? undefined : byId.get(id);
      return record && { ...record };
    },
    async list() {
      return [...byId.values()]
        .sort((a, b) => byText(a.createdAt, b.createdAt) || byText(a.id, b.id))
        .map((r) => ({ ...r }));
    },
    async revoke(id, at) {
      const record = byId.get(id);
      if (!record || record.revokedAt !== null) return false;
      record.revokedAt = at;
      return true;
    },
    async count() {
      return byId.size;
    },
    async addUsage(deltas) {
      // A bad time fails the call whole, as the rolled-back transaction of the SQL stores does.
      for (const d of withIsoTimes(deltas)) {
        if (!byId.has(d.id) && d.id !== ANONYMOUS_USAGE_ID) continue;
        const u = usageById.get(d.id) ?? { id: d.id, requests: 0, refusals: 0, lastUsedAt: null };
        u.requests += d.requests;
        u.refusals += d.refusals;
        if (d.lastUsedAt !== null && (u.lastUsedAt === null || d.lastUsedAt > u.lastUsedAt))
          u.lastUsedAt = d.lastUsedAt;
        usageById.set(d.id, u);
      }
    },
    async usage() {
      return [...usageById.values()].sort((a, b) => byText(a.id, b.id)).map((u) => ({ ...u }));
    },
  };
}
