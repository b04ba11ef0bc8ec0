import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

/**
 * A client that closes its connection before its POST /v1/fetch is answered (issue 23):
 * Scout aborts the upstream request (the origin sees its socket closed) and frees the fetch
 * slot. One slot and no line, so a fetch that still held it would make the next one 503.
 * The deadline is 60 s: what the test waits for happens in milliseconds, or never.
 */

let t: TestScout;
let origin: FixtureServer;
const held: ServerResponse[] = [];

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 4000 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error(`never happened: ${what}`);
}

beforeAll(async () => {
  origin = await startFixtureServer({
    '/held': (_req, res) => void held.push(res),
    '/page': { headers: { 'content-type': 'text/html' }, body: '<html><head><title>Next</title></head><body><main><p>The next fetch got the slot.</p></main></body></html>' },
  });
  t = await startTestScout({
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_FETCH_CONCURRENCY: '1',
    SCOUT_FETCH_QUEUE: '0',
    SCOUT_FETCH_TIMEOUT_MS: '60000',
  });
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await t.close();
  await origin.close();
});

describe('a client that leaves before its fetch is answered', () => {
  it('stops the upstream request and frees the slot for the next fetch', async () => {
    const client = new AbortController();
    const gone = fetch(`${t.baseUrl}/v1/fetch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: origin.url('/held') }),
      signal: client.signal,
    }).catch((e: Error) => e.name);
    await until(() => held.length === 1, 'the fetch at the origin');
    const socket = origin.sockets.length - 1;
    client.abort();
    expect(await gone).toBe('AbortError');
    await until(() => origin.socketClosed(socket), 'the upstream socket closed');
    await until(() => t.scout.fetchLine().active === 0, 'the slot freed');
    const next = await t.request('POST', '/v1/fetch', { body: { url: origin.url('/page') } });
    expect(next.status).toBe(200);
    expect(next.body.content).toContain('The next fetch got the slot.');
  });
});
