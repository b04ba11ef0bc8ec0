import { describe, expect, it } from 'vitest';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { NEXT_PAGE_TEXT, until, useOneSlotFetch } from '../helpers/one-slot-fetch.ts';

/**
 * A client that closes its connection before its POST /v1/fetch is answered (issue 23):
 * Scout aborts the upstream request (the origin sees its socket closed) and frees the fetch
 * slot. One slot and no line, so a fetch that still held it would make the next one 503.
 * The deadline is 60 s: what the test waits for happens in milliseconds, or never.
 */

const f = useOneSlotFetch();

describe('a client that leaves before its fetch is answered', () => {
  it('stops the upstream request and frees the slot for the next fetch', async () => {
    const client = new AbortController();
    const gone = fetch(`${f.t.baseUrl}/v1/fetch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: f.origin.url('/held') }),
      signal: client.signal,
    }).catch((e: Error) => e.name);
    await until(() => f.held.length === 1, 'the fetch at the origin');
    const socket = f.origin.sockets.length - 1;
    client.abort();
    expect(await gone).toBe('AbortError');
    await until(() => f.origin.socketClosed(socket), 'the upstream socket closed');
    await until(() => f.t.scout.fetchLine().active === 0, 'the slot freed');
    const next = await f.t.request<FetchResponse>('POST', '/v1/fetch', { body: { url: f.origin.url('/page') } });
    expect(next.status).toBe(200);
    expect(next.body.content).toContain(NEXT_PAGE_TEXT);
  });
});
