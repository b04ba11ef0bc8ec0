import { randomBytes } from 'node:crypto';
import type { SecretStore } from '../ports.ts';

/** Secrets of this process only: a new process makes new ones. */
export function createMemorySecretStore(): SecretStore {
  const secrets = new Map<string, Uint8Array>();
  return {
    async get(name, bytes) {
      let value = secrets.get(name);
      if (value === undefined) secrets.set(name, (value = new Uint8Array(randomBytes(bytes))));
      return value.slice();
    },
  };
}
