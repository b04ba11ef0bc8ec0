import { Ajv } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { expect } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { FetchResponse } from '../../src/schemas/fetch.ts';
import { SearchResponse } from '../../src/schemas/search.ts';
import { SearxngResponse } from '../../src/schemas/searxng.ts';
import { Usage } from '../../src/schemas/usage.ts';
import { AdminKey, AdminKeyList, AdminOverview } from '../../src/schemas/admin.ts';

// Strict: no coercion, no removal; every schema already forbids additional properties.
const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new Map<TSchema, ReturnType<typeof ajv.compile>>();

/** Fails the test unless `value` is of `schema`; past it, TypeScript knows the value's type too. */
export function expectShape<T extends TSchema>(schema: T, value: unknown): asserts value is Static<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  const ok = check(value);
  expect(ok, `${JSON.stringify(value).slice(0, 500)}\n${ajv.errorsText(check.errors)}`).toBe(true);
}

export const schemaFor = (path: string, status: number): TSchema | undefined => {
  if (status >= 400) return ErrorBody;
  if (status !== 200) return undefined;
  if (path.startsWith('/v1/search')) return SearchResponse;
  // The SearXNG shape, with or without a path key (docs/compat.md).
  if (/^(\/k\/[^/]+)?\/search(\?|$)/.test(path)) return SearxngResponse;
  if (path.startsWith('/v1/fetch')) return FetchResponse;
  if (path.startsWith('/v1/usage')) return Usage;
  if (path === '/admin/v1/overview') return AdminOverview;
  if (path === '/admin/v1/keys') return AdminKeyList;
  if (/^\/admin\/v1\/keys\/[^/]+\/revoke$/.test(path)) return AdminKey;
  return undefined;
};
