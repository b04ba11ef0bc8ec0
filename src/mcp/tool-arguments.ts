import { DomainError } from '../domain/errors.ts';
import type { JsonSchema } from './json-schema.ts';

/**
 * What a tools/call's `arguments` may be. MCP defines them as an object; anything else is a
 * tool error naming the problem, so the model can fix its call (a protocol error would reach
 * the client, not the model). Strict function calling (OpenAI's strict mode, and clients
 * built on it) sends every optional argument, null where the model chose none, so in MCP
 * arguments null means "left out". The HTTP API, which programs call, stays strict.
 */

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'an array' : `a ${typeof v}`);

/** A call's arguments as the tool's validator takes them: null or missing is none, null-valued fields are left out. */
export function toolArguments(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new DomainError(
      'invalid',
      `arguments must be an object of named arguments (such as {"query": "..."}), not ${kindOf(args)}`,
    );
  }
  const given = args as Record<string, unknown>;
  // Top level only: a null inside a list (include_domains: [null]) is still an invalid value.
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(given)) {
    if (given[key] !== null) continue;
    out ??= { ...given };
    delete out[key];
  }
  return out ?? given;
}

/** `schema` (a fresh copy, changed in place) saying the same to clients: each optional property also takes null. */
export function nullableOptionals(schema: JsonSchema): JsonSchema {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, prop] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    if (required.has(name)) continue;
    if (Array.isArray(prop.anyOf)) prop.anyOf = [...prop.anyOf, { type: 'null' }];
    else if (typeof prop.type === 'string') prop.type = [prop.type, 'null'];
    else throw new Error(`no way to make property ${name} nullable`);
  }
  return schema;
}
