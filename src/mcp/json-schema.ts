import type { TSchema } from '@sinclair/typebox';
import { RULE } from '../schemas/rule.ts';

/** A plain JSON Schema object, as it travels in tools/list. */
export type JsonSchema = { [key: string]: unknown };

/**
 * The JSON Schema of a TypeBox schema as an MCP client receives it: the same constraints as
 * the HTTP API (one source, src/schemas), without what is not JSON Schema for a model.
 * Dropped: TypeBox's symbol keys (lost in JSON anyway), `x-rule` (the HTTP error sentence;
 * some model providers refuse unknown keywords in tool schemas) and `$id` (a client compiles
 * every tool's schema into one validator, where two tools carrying the same id would clash).
 */
export function jsonSchemaOf(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === RULE || key === '$id' ? undefined : value,
  ) as JsonSchema;
}

/**
 * `schema` with model-facing descriptions: one for the whole object, one per property. Only
 * `description` changes, so what a value may be stays exactly what the HTTP API accepts.
 */
export function describedSchema(schema: TSchema, description: string, properties: Record<string, string>): JsonSchema {
  const out = jsonSchemaOf(schema);
  out.description = description;
  const props = out.properties as Record<string, JsonSchema>;
  for (const [name, text] of Object.entries(properties)) {
    if (props[name] === undefined) throw new Error(`no property ${name} to describe`);
    props[name].description = text;
  }
  return out;
}
