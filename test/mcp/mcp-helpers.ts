import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TSchema } from '@sinclair/typebox';
import { countTokens } from '../../src/content/token-count.ts';

/** A TypeBox schema as JSON, less what does not constrain a value (descriptions) and the HTTP error sentences. */
export const constraintsOf = (schema: TSchema | Record<string, unknown>): unknown =>
  JSON.parse(JSON.stringify(schema), (key, value) =>
    key === 'description' || key === 'x-rule' || key === '$id' ? undefined : value,
  );

/** The whole result as a model could read it: its text and its structured content as JSON. */
export const resultSize = (r: CallToolResult): number =>
  countTokens(textOf(r)) + (r.structuredContent === undefined ? 0 : countTokens(JSON.stringify(r.structuredContent)));

export const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** A long article: numbered paragraphs, so parts can be told apart and joined back. */
export function longArticle(paragraphs: number): string {
  const body = Array.from(
    { length: paragraphs },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the long fixture article. Scout reads a long page in parts, and every part of it starts where the one before it ended, so that nothing is lost or read twice.</p>`,
  ).join('\n');
  return `<html><head><title>Long fixture article</title></head><body><main><h1>Long fixture article</h1>${body}</main></body></html>`;
}

type Schema = { required?: string[]; properties: Record<string, { type?: unknown; anyOf?: unknown[] }> };

/** What a tool's input schema is, given the HTTP schema's constraints: each optional property also takes null. */
export function nullableOptionals(constraints: unknown): unknown {
  const schema = structuredClone(constraints) as Schema;
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (schema.required?.includes(name)) continue;
    if (prop.anyOf) prop.anyOf.push({ type: 'null' });
    else prop.type = [prop.type, 'null'];
  }
  return schema;
}
