import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { NEXT_PAGE_TEXT, startOneSlotFetch, until, type OneSlotFetch } from '../helpers/one-slot-fetch.ts';
import type { TestScout } from '../helpers/test-scout.ts';

/**
 * A client that closes its connection before its POST /v1/fetch is answered (issue 23):
 * Scout aborts the upstream request (the origin sees its socket closed) and frees the fetch
 * slot. One slot and no line, so a fetch that still held it would make the next one 503.
 * The deadline is 60 s: what the test waits for happens in milliseconds, or never.
 */

let f: OneSlotFetch;
let t: TestScout;
let origin: FixtureServer;
let held: ServerResponse[];

beforeAll(async () => {
  f = await startOneSlotFetch();
  ({ t, origin, held } = f);
});
afterAll(() => f.close());

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
    expect(next.body.content).toContain(NEXT_PAGE_TEXT);
  });
});
