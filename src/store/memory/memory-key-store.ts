import type { ApiKeyRecord, KeyStore } from '../ports.ts';
import { byText } from './by-text.ts';

/**
 * Keys in process memory: the reference KeyStore. Like the SQLite table, a repeated id or
 * hash is refused, and records are handed out as copies.
 */
export function createMemoryKeyStore(): KeyStore {
  const byId = new Map<string, ApiKeyRecord>();
  const idByHash = new Map<string, string>();
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
      return [...byId.values()].sort((a, b) => byText(a.createdAt, b.createdAt) || byText(a.id, b.id)).map((r) => ({ ...r }));
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
  };
}
