import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { runScout } from '../helpers/cli.ts';
import { NEXT_PAGE_TEXT, until, useOneSlotFetch } from '../helpers/one-slot-fetch.ts';
import { ROOT, within } from '../helpers/scout-process.ts';

/**
 * An MCP client that goes away during a fetch_page call (issue 23; docs/mcp.md: "a request
 * whose HTTP connection closes before its answer is cancelled"): the SDK's client closes its
 * transport, which closes the POST's connection; Scout aborts the upstream request (the
 * origin sees its socket closed) and frees the fetch slot. One slot and no line, so a fetch
 * that still held it would make the next one 503. The deadline is 60 s: what the test waits
 * for happens in milliseconds, or never. Over stdio (`scout mcp`) the client cancels the call
 * itself (the SDK sends notifications/cancelled), in-process and through SCOUT_URL.
 */

const f = useOneSlotFetch();

/** Starts `scout mcp`, calls fetch_page on the held page, cancels the call once the origin has it. */
async function cancelOverStdio(env: Record<string, string>): Promise<number> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/scout.mjs', 'mcp'],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SCOUT_LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'scout-cancel-test', version: '1.0.0' });
  await within(60_000, 'scout mcp to answer initialize', client.connect(transport));
  try {
    const before = f.held.length;
    const cancel = new AbortController();
    const call = client
      .callTool({ name: 'fetch_page', arguments: { url: f.origin.url('/held') } }, undefined, { signal: cancel.signal })
      .catch((e: Error) => e);
    await until(() => f.held.length === before + 1, 'the fetch at the origin');
    const socket = f.origin.sockets.length - 1;
    cancel.abort('the agent moved on');
    expect(await call).toBeInstanceOf(Error);
    await until(() => f.origin.socketClosed(socket), 'the upstream socket closed');
    return socket;
  } finally {
    await client.close();
  }
}

describe('an MCP client that leaves during fetch_page', () => {
  it('stops the upstream request and frees the slot for the next fetch', async () => {
    const client = new Client({ name: 'scout-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${f.t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${f.t.key}` } },
      }),
    );
    const call = client
      .callTool({ name: 'fetch_page', arguments: { url: f.origin.url('/held') } })
      .catch((e: Error) => e);
    await until(() => f.held.length === 1, 'the fetch at the origin');
    const socket = f.origin.sockets.length - 1;
    await client.close();
    expect(await call).toBeInstanceOf(Error); // the SDK ends the call unanswered
    await until(() => f.origin.socketClosed(socket), 'the upstream socket closed');
    await until(() => f.t.scout.fetchLine().active === 0, 'the slot freed');
    const next = await f.t.request<FetchResponse>('POST', '/v1/fetch', { body: { url: f.origin.url('/page') } });
    expect(next.status).toBe(200);
    expect(next.body.content).toContain(NEXT_PAGE_TEXT);
  });
});

describe('a stdio client that cancels fetch_page (scout mcp)', () => {
  it('in-process: stops the upstream request', async () => {
    const root = mkdtempSync(join(tmpdir(), 'scout-mcp-cancel-'));
    try {
      const dataDir = join(root, 'data');
      const key = (await runScout(['keys', 'create', '--name', 'desktop'], { SCOUT_DATA_DIR: dataDir })).stdout.trim();
      await cancelOverStdio({
        SCOUT_DATA_DIR: dataDir,
        SCOUT_API_KEY: key,
        SCOUT_FETCH_WORKERS: '1',
        SCOUT_FETCH_WORKER_NICE: '0',
        SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
        SCOUT_FETCH_TIMEOUT_MS: '60000',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('through SCOUT_URL: closes its request to the server, which stops the upstream request and frees the slot', async () => {
    await cancelOverStdio({ SCOUT_URL: f.t.baseUrl, SCOUT_API_KEY: f.t.key });
    await until(() => f.t.scout.fetchLine().active === 0, 'the slot freed');
    const next = await f.t.request('POST', '/v1/fetch', { body: { url: f.origin.url('/page') } });
    expect(next.status).toBe(200);
  });
});
