import { CallToolResultSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpHttpHandler, type McpHttpAnswer, type McpHttpCaller } from '../../src/mcp/http-handler.ts';
import type { SearchRequest, SearchResponse } from '../../src/schemas/search.ts';
import type { RequestContext } from '../../src/search/search-service.ts';
import { defined } from '../helpers/defined.ts';

/**
 * One long-lived MCP Server serves every POST (http-handler.ts, exchange-transport.ts):
 * clients' JSON-RPC ids collide, connections close early, batches mix requests and
 * notifications. The services are stubs whose searches finish when the test says so.
 */

interface Held {
  query: string;
  finish(): void;
}

function stubHandler() {
  const held: Held[] = [];
  const handler = createMcpHttpHandler({
    search: {
      run: (req: SearchRequest, ctx: RequestContext) =>
        new Promise((resolve) => {
          const body: SearchResponse = {
            request_id: ctx.requestId,
            query: req.query,
            results: [],
            response_time_ms: 1,
            meta: { sponsored_count: 0, result_count: 0 },
          };
          held.push({ query: req.query, finish: () => resolve({ body, providers: ['stub'] }) });
        }),
    } as never,
    fetch: {} as never,
    map: {} as never,
    crawl: {} as never,
    rateLimiter: {
      consume: async () => ({ allowed: true, limit: 60, remaining: 59, resetMs: 1000, retryAfterMs: 0 }),
      peek: async () => ({ limit: 60, remaining: 60, resetMs: 0, retryAfterMs: 0 }),
    },
    maxResultTokens: 2000,
    defaultTools: ['web_search', 'fetch_page'],
  });
  return { handler, held };
}

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const caller = (requestId: string, headers: Record<string, string> = {}): McpHttpCaller => ({
  keyId: 'key',
  ctx: { requestId, startedAt: performance.now() },
  setHeaders: (h) => Object.assign(headers, h),
});
const search = (id: number | string, query: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'web_search', arguments: { query } },
});
const json = (a: McpHttpAnswer | undefined) => JSON.parse(a!.body!);
// Lets the Server's promise chains run (where nothing more must happen).
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
/** Waits until `n` searches are held: events, not a fixed pause, for the machine may be busy (issue 24). */
async function heldReach(held: Held[], n: number): Promise<void> {
  for (let i = 0; i < 4000 && held.length < n; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  if (held.length < n) throw new Error(`${held.length} searches held, not ${n}`);
}

describe('POST /mcp through one shared MCP Server', () => {
  it('two clients using the same JSON-RPC id each get their own answer, under their own id', async () => {
    const { handler, held } = stubHandler();
    const headersA: Record<string, string> = {};
    const a = handler.handle(HEADERS, search(1, 'alpha'), caller('req-a', headersA));
    const b = handler.handle(HEADERS, search(1, 'beta'), caller('req-b'));
    await heldReach(held, 2);
    expect(held.map((h) => h.query)).toEqual(['alpha', 'beta']);
    expect(handler.inFlight()).toBe(2);
    // Answered in the other order than asked.
    defined(held[1], 'the second search').finish();
    defined(held[0], 'the first search').finish();
    const [ra, rb] = [json(await a.answer), json(await b.answer)];
    expect(ra).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { structuredContent: { query: 'alpha', request_id: 'req-a' } },
    });
    expect(rb).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { structuredContent: { query: 'beta', request_id: 'req-b' } },
    });
    expect(headersA['ratelimit-remaining']).toBe('59');
    expect(handler.inFlight()).toBe(0);
  });

  it("a result goes out as the tool serialized it, byte for byte what the SDK's checked copy would give", async () => {
    const { handler, held } = stubHandler();
    const call = handler.handle(HEADERS, search('q-1', 'bytes "quoted" \u2026'), caller('req-bytes'));
    await heldReach(held, 1);
    defined(held[0], 'the held search').finish();
    const body = (await call.answer)!.body!;
    const sdkCopy = CallToolResultSchema.parse(JSON.parse(body).result);
    expect(body).toBe(JSON.stringify({ result: sdkCopy, jsonrpc: '2.0', id: 'q-1' }));
  });

  it('a POST whose connection closes early leaves nothing pending, and its late answer goes nowhere', async () => {
    const { handler, held } = stubHandler();
    const call = handler.handle(HEADERS, [search(1, 'gone'), search(2, 'gone too')], caller('req-gone'));
    await heldReach(held, 2);
    expect(handler.inFlight()).toBe(2);
    call.abandon();
    expect(handler.inFlight()).toBe(0);
    expect(await call.answer).toBeUndefined();
    for (const h of held) h.finish();
    await settle();
    expect(handler.inFlight()).toBe(0);
    // Abandoning after the answer changes nothing.
    const done = handler.handle(HEADERS, search(3, 'kept'), caller('req-kept'));
    await heldReach(held, 3);
    defined(held[2], 'the third search').finish();
    expect(json(await done.answer).result.structuredContent.query).toBe('kept');
    done.abandon();
    expect(handler.inFlight()).toBe(0);
  });

  it("a client's cancellation cannot reach another client's request with the same id", async () => {
    const { handler, held } = stubHandler();
    const a = handler.handle(HEADERS, search(1, 'mine'), caller('req-a'));
    await heldReach(held, 1);
    const cancel = handler.handle(
      HEADERS,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      caller('req-b'),
    );
    expect(await cancel.answer).toEqual({ status: 202 });
    await settle();
    defined(held[0], 'the held search').finish();
    expect(json(await a.answer).result.structuredContent.query).toBe('mine');
  });

  it('a batch is answered as an array in request order; notifications and responses in it get no answer', async () => {
    const { handler, held } = stubHandler();
    const batch = [
      search('s', 'batched'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'l', method: 'tools/list' },
      { jsonrpc: '2.0', id: 99, result: {} },
    ];
    const call = handler.handle(HEADERS, batch, caller('req-batch'));
    await heldReach(held, 1);
    defined(held[0], 'the held search').finish();
    const answer = await call.answer;
    expect(answer?.status).toBe(200);
    const body = JSON.parse(answer!.body!);
    expect(body.map((m: { id: unknown }) => m.id)).toEqual(['s', 'l']);
    expect(body[1].result.tools).toHaveLength(2);
    const only = handler.handle(HEADERS, [{ jsonrpc: '2.0', method: 'notifications/initialized' }], caller('req-n'));
    expect(await only.answer).toEqual({ status: 202 });
  });

  it('refuses at the HTTP level as the SDK transport does', async () => {
    const { handler } = stubHandler();
    const refusal = async (headers: Record<string, string>, body: unknown) => {
      const a = await handler.handle(headers, body, caller('req')).answer;
      return { status: a!.status, error: json(a).error, id: json(a).id };
    };
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    expect(await refusal({ ...HEADERS, accept: 'application/json' }, init)).toEqual({
      status: 406,
      error: {
        code: -32000,
        message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
      },
      id: null,
    });
    expect(await refusal({ ...HEADERS, 'content-type': 'text/plain' }, init)).toMatchObject({
      status: 415,
      error: { code: -32000 },
    });
    expect(await refusal(HEADERS, { jsonrpc: '2.0', id: 1 })).toMatchObject({
      status: 400,
      error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
    });
    expect(
      await refusal(
        HEADERS,
        Array.from({ length: 101 }, (_, i) => search(i, 'x')),
      ),
    ).toMatchObject({ status: 400, error: { code: -32600 } });
    expect(await refusal(HEADERS, [init, search(2, 'x')])).toMatchObject({
      status: 400,
      error: { message: 'Invalid Request: Only one initialization request is allowed' },
    });
    const version = await refusal(
      { ...HEADERS, 'mcp-protocol-version': '1999-01-01' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    );
    expect(version).toMatchObject({ status: 400, error: { code: -32000 } });
    expect(version.error.message).toMatch(
      /^Bad Request: Unsupported protocol version: 1999-01-01 \(supported versions: .*2025-06-18/,
    );
    // initialize needs no version header, and any supported one is negotiated.
    const ok = await handler.handle({ ...HEADERS, 'mcp-protocol-version': '1999-01-01' }, init, caller('req')).answer;
    expect(json(ok).result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(handler.inFlight()).toBe(0);
  });
});
