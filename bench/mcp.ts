/**
 * npm run bench:mcp [-- --docs 10000 --seconds 3 --rounds 6 --connections 10]
 *
 * A `web_search` tool call over MCP streamable HTTP (POST /mcp, one JSON-RPC tools/call a
 * request, stateless) against POST /v1/search on the same Scout, the same sequence of
 * distinct queries, alternating rounds; prints requests/s, p50 and p99 of each, the p50
 * MCP adds and the requests/s ratio (medians of the rounds). Goal (issue 12): p50 added
 * <= 1 ms, requests/s >= 70% of the HTTP route.
 */
import type autocannon from 'autocannon';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchScout, load, median, queries, querySequence, summary, type Run } from './load-kit.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '6' },
    connections: { type: 'string', default: '10' },
  },
});
const DOCS = Number(values.docs);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);

/** tools/call web_search with the next query of one global sequence (see querySequence). */
function toolCallSequence(qs: readonly string[], key: string): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/mcp',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      setupRequest: (req: autocannon.Request) => ({
        ...req,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: next,
          method: 'tools/call',
          params: { name: 'web_search', arguments: { query: qs[next++ % qs.length], max_results: 10 } },
        }),
      }),
    },
  ];
}

async function main(): Promise<void> {
  const b = await benchScout(DOCS);
  try {
    const qs = queries(2000);
    // Both answer once before timing (and the MCP answer must be a tool result, not an error).
    const probe = await fetch(`${b.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${b.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'tools/call',
        params: { name: 'web_search', arguments: { query: qs[0] } },
      }),
    });
    const text = await probe.text();
    if (probe.status !== 200 || !text.includes('"structuredContent"'))
      throw new Error(`/mcp did not answer a tool result: ${probe.status} ${text.slice(0, 300)}`);

    const http: Run[] = [];
    const mcp: Run[] = [];
    const ratios: number[] = [];
    const added: number[] = [];
    await load('warm-up', { url: b.url, requests: querySequence('/v1/search', qs, b.key) }, 1, CONNECTIONS);
    await load('warm-up', { url: b.url, requests: toolCallSequence(qs, b.key) }, 1, CONNECTIONS);
    for (let r = 0; r < ROUNDS; r++) {
      const h = await load(
        'POST /v1/search',
        { url: b.url, requests: querySequence('/v1/search', qs, b.key) },
        SECONDS,
        CONNECTIONS,
      );
      const m = await load(
        'MCP web_search (POST /mcp)',
        { url: b.url, requests: toolCallSequence(qs, b.key) },
        SECONDS,
        CONNECTIONS,
      );
      http.push(h);
      mcp.push(m);
      ratios.push(m.rps / h.rps);
      added.push(m.p50 - h.p50);
    }
    console.log(
      `\n${DOCS} documents, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s (medians)`,
    );
    console.log('route                               req/s   p50 ms   p99 ms  errors  non-2xx');
    for (const s of [summary(http), summary(mcp)]) {
      console.log(
        `${s.name.padEnd(32)} ${s.rps.toFixed(0).padStart(8)} ${String(s.p50).padStart(8)} ${String(s.p99).padStart(8)} ${String(s.errors).padStart(7)} ${String(s.non2xx).padStart(8)}`,
      );
    }
    console.log(`\nMCP / HTTP requests/s: ${(median(ratios) * 100).toFixed(1)}% (goal >= 70%)`);
    console.log(
      `p50 added by MCP: ${median(added).toFixed(2)} ms (goal <= 1 ms; autocannon reports whole milliseconds)`,
    );
  } finally {
    await b.scout.close();
    rmSync(b.root, { recursive: true, force: true });
  }
}

await main();
