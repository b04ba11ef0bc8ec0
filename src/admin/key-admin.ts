import { ANONYMOUS_USAGE_ID } from '../domain/anonymous-caller.ts';
import { DomainError } from '../domain/errors.ts';
import type { KeyStore, KeyUsage } from '../store/ports.ts';
import type { AdminAnonymousUsage, AdminKey } from '../schemas/admin.ts';

export interface KeyAdmin {
  list(): Promise<AdminKey[]>;
  /** Every keyless request of the anonymous tier, all addresses as one entry; null when there has been none. */
  anonymous(): Promise<AdminAnonymousUsage | null>;
  /** Revokes a key (again is no error); the key as it stands. DomainError not_found when there is none. */
  revoke(id: string): Promise<AdminKey>;
}

/** Every key with its usage as the store holds it (the dashboard, `scout keys list`). */
export async function listKeysWithUsage(store: Pick<KeyStore, 'list' | 'usage'>): Promise<AdminKey[]> {
  const [keys, usage] = await Promise.all([store.list(), store.usage()]);
  const byId = new Map<string, KeyUsage>(usage.map((u) => [u.id, u]));
  return keys.map((k) => {
    const u = byId.get(k.id);
    return {
      id: k.id,
      name: k.name,
      created_at: k.createdAt,
      revoked_at: k.revokedAt,
      requests: u?.requests ?? 0,
      refusals: u?.refusals ?? 0,
      last_used_at: u?.lastUsedAt ?? null,
    };
  });
}

/**
 * The dashboard's keys: each with its usage. Usage is counted in memory and written in
 * batches (src/keys/key-usage-recorder.ts); `flush` writes this process's batch first, so
 * what this process served is all there (other replicas' within their flush interval).
 */
export function createKeyAdmin(store: KeyStore, o: { flush: () => Promise<void>; now?: () => Date }): KeyAdmin {
  const now = o.now ?? (() => new Date());
  const list = async (): Promise<AdminKey[]> => {
    await o.flush();
    return listKeysWithUsage(store);
  };
  return {
    list,
    async anonymous() {
      await o.flush();
      const u = (await store.usage()).find((x) => x.id === ANONYMOUS_USAGE_ID);
      return u ? { requests: u.requests, refusals: u.refusals, last_used_at: u.lastUsedAt } : null;
    },
    async revoke(id) {
      await store.revoke(id, now().toISOString());
      const key = (await list()).find((k) => k.id === id);
      if (key === undefined) throw new DomainError('not_found', `no API key ${id}; GET /admin/v1/keys lists them`);
      return key;
    },
  };
}
