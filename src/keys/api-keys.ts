import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, KeyStore } from '../store/ports.ts';
import { DomainError } from '../domain/errors.ts';
import { generateApiKey, hashApiKey, isWellFormedApiKey, randomBase62 } from './api-key-format.ts';

export interface CreatedKey {
  id: string;
  name: string;
  /** The plaintext: shown once, never stored. */
  key: string;
  created_at: string;
}

export const UNKNOWN_KEY_MESSAGE =
  'API key is not valid (unknown or revoked); create one with `npx scout keys create --name <label>`';

export function createApiKeys(store: KeyStore, now: () => Date = () => new Date()) {
  return {
    async create(name: string): Promise<CreatedKey> {
      const label = name.trim();
      if (label === '' || label.length > 100) throw new DomainError('invalid', 'key name must be 1 to 100 characters');
      const key = generateApiKey();
      const record = {
        id: `key_${randomBase62(12)}`,
        name: label,
        hash: hashApiKey(key),
        createdAt: now().toISOString(),
      };
      await store.insert(record);
      return { id: record.id, name: record.name, key, created_at: record.createdAt };
    },

    async revoke(id: string): Promise<boolean> {
      return store.revoke(id, now().toISOString());
    },

    /**
     * Resolves a presented key to its record. Malformed keys are refused before the store
     * is touched; a store failure is 503 (the key may be fine), never 401.
     */
    async authenticate(presented: string): Promise<ApiKeyRecord> {
      if (!isWellFormedApiKey(presented)) {
        throw new DomainError(
          'unauthorized',
          'API key is malformed: expected scout_ followed by 38 letters and digits',
        );
      }
      const hash = hashApiKey(presented);
      let record: ApiKeyRecord | undefined;
      try {
        record = await store.findByHash(hash);
      } catch (e) {
        throw new DomainError('unavailable', 'the key store is unavailable; retry shortly', {
          cause: e,
          retryAfterS: 5,
        });
      }
      if (!record || !timingSafeEqual(Buffer.from(record.hash, 'hex'), Buffer.from(hash, 'hex')) || record.revokedAt) {
        throw new DomainError('unauthorized', UNKNOWN_KEY_MESSAGE);
      }
      return record;
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
