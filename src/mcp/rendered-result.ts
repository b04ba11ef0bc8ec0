import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Tool results whose structured content was serialized already, to measure it against the
 * result bound (bound-search.ts, page-part.ts). POST /mcp writes that JSON as it is instead
 * of serializing the content a second time (http-handler.ts): the two serializations were a
 * tenth of a web_search call's time. stdio ignores it and serializes the result itself.
 */

interface Parts {
  text: string;
  structuredJson: string;
}

// By result: nothing is added to the result object itself, which the SDK checks and copies.
const parts = new WeakMap<CallToolResult, Parts>();

/** A result of markdown `text` and `structured` content, `structuredJson` being JSON.stringify(structured). */
export function measuredResult(
  text: string,
  structured: Record<string, unknown>,
  structuredJson: string,
): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent: structured };
  parts.set(result, { text, structuredJson });
  return result;
}

/** JSON.stringify(result), for a result measuredResult made (the same keys in the same order); else undefined. */
export function resultJson(result: CallToolResult): string | undefined {
  const p = parts.get(result);
  return p && `{"content":[{"type":"text","text":${JSON.stringify(p.text)}}],"structuredContent":${p.structuredJson}}`;
}
