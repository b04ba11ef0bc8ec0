import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveStdout } from '../../src/cli/protocol-stdout.ts';
import { FetchResponse } from '../../src/schemas/fetch.ts';
import { SearchRequest, SearchResponse } from '../../src/schemas/search.ts';
import { runScout } from '../helpers/cli.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { ROOT, within } from '../helpers/scout-process.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { constraintsOf, nullableOptionals, textOf } from './mcp-helpers.ts';

let origin: FixtureServer;
let remote: TestScout;
let root: string;
let localKey: string;

/** Env of `scout mcp` in-process: its own data folder, one extraction worker, the fixture reachable. */
const localEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  SCOUT_SEARCH_PROVIDERS: 'local',
  HOME: process.env.HOME ?? '',
  SCOUT_DATA_DIR: join(root, 'data'),
  SCOUT_FETCH_WORKERS: '1',
  SCOUT_FETCH_WORKER_NICE: '0',
  SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
  SCOUT_LOG_LEVEL: 'warn',
  SCOUT_API_KEY: localKey,
  ...extra,
});

async function stdioClient(
  env: Record<string, string>,
): Promise<{ client: Client; stderr: () => string; errors: Error[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/scout.mjs', 'mcp'],
    cwd: ROOT,
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c) => (stderr += c));
  const client = new Client({ name: 'scout-stdio-test', version: '1.0.0' });
  // A line on stdout that is not a protocol message would be reported here.
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await within(60_000, 'scout mcp to answer initialize', client.connect(transport));
  return { client, stderr: () => stderr, errors };
}

beforeAll(async () => {
  origin = await startFixtureServer({
    '/article': {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><head><title>Stdio page</title></head><body><main><h1>Stdio page</h1><p>Read over stdio by a desktop client through scout mcp.</p></main></body></html>',
    },
  });
  root = mkdtempSync(join(tmpdir(), 'scout-mcp-stdio-'));
  const created = await runScout(['keys', 'create', '--name', 'desktop'], { SCOUT_DATA_DIR: join(root, 'data') });
  localKey = created.stdout.trim();
  remote = await startTestScout({ SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32', SCOUT_RATE_LIMIT_RPM: '100000' });
});
afterAll(async () => {
  await remote?.close();
  await origin?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('scout mcp (stdio), in-process on the embedded store', () => {
  it('lists the tools, searches, fetches, and charges the local monthly budget', async () => {
    const { client, errors } = await stdioClient(localEnv({ SCOUT_MONTHLY_SEARCH_BUDGET: '1' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['web_search', 'fetch_page']);
      expect(constraintsOf(defined(tools[0], 'web_search').inputSchema)).toEqual(
        nullableOptionals(constraintsOf(SearchRequest)),
      );

      const found = (await client.callTool({ name: 'web_search', arguments: { query: 'api keys' } })) as CallToolResult;
      expect(found.isError).toBeFalsy();
      expectShape(SearchResponse, found.structuredContent);
      expect((found.structuredContent as SearchResponse).results.length).toBeGreaterThan(0);
      expect(textOf(found)).toContain('### 1. ');

      const page = (await client.callTool({
        name: 'fetch_page',
        arguments: { url: origin.url('/article') },
      })) as CallToolResult;
      expectShape(FetchResponse, page.structuredContent);
      expect(textOf(page)).toContain('Read over stdio by a desktop client through scout mcp.');

      // The same monthly budget as the server on this folder: one unit, now spent.
      const spent = (await client.callTool({
        name: 'web_search',
        arguments: { query: 'rate limit' },
      })) as CallToolResult;
      expect(spent.isError).toBe(true);
      expect(textOf(spent)).toMatch(/^Error 503: the monthly free search budget \(1 units\) is exhausted/);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('writes nothing but JSON-RPC messages to stdout, and exits 0 when stdin closes', async () => {
    const child = spawn(process.execPath, ['bin/scout.mjs', 'mcp'], {
      cwd: ROOT,
      env: localEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'web_search', arguments: { query: 'sponsored results', search_depth: 'advanced' } },
    });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'fetch_page', arguments: { url: origin.url('/article') } },
    });
    send({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'fetch_page', arguments: { url: 'http://127.0.0.1/' } },
    });
    const answered = () => out.split('\n').filter((l) => l.trim() !== '').length >= 5;
    await within(
      30_000,
      `five answers on stdout (stderr: ${err.slice(0, 500)})`,
      (async () => {
        while (!answered()) await new Promise((r) => setTimeout(r, 50));
      })(),
    );
    child.stdin.end();
    expect(await within(20_000, 'scout mcp to exit after stdin closed', exited)).toBe(0);
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    const byId = new Map(lines.map((l) => JSON.parse(l)).map((m) => [m.id, m]));
    expect(byId.get(3).result.structuredContent.query).toBe('sponsored results');
    expect(byId.get(5).result.isError).toBe(true);
  });

  it('needs SCOUT_API_KEY, and in-process a key of the local store', async () => {
    const none = await runScout(['mcp'], { SCOUT_DATA_DIR: join(root, 'data') });
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toContain('SCOUT_API_KEY is required');
    const unknown = await runScout(['mcp'], {
      ...localEnv(),
      SCOUT_API_KEY: remote.key,
      SCOUT_STARTER_CORPUS: 'false',
    });
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('API key is not valid');
  });
});

describe('scout mcp (stdio) against a running Scout (SCOUT_URL)', () => {
  it('calls its HTTP API with the key', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      SCOUT_SEARCH_PROVIDERS: 'local',
      SCOUT_URL: remote.baseUrl,
      SCOUT_API_KEY: remote.key,
      SCOUT_DATA_DIR: join(root, 'unused'),
    };
    const { client, errors } = await stdioClient(env);
    try {
      const found = (await client.callTool({
        name: 'web_search',
        arguments: { query: 'api keys', max_results: 3 },
      })) as CallToolResult;
      expectShape(SearchResponse, found.structuredContent);
      const http = await remote.request<SearchResponse>('POST', '/v1/search', {
        body: { query: 'api keys', max_results: 3 },
      });
      expect((found.structuredContent as SearchResponse).results).toEqual(http.body.results);
      const page = (await client.callTool({
        name: 'fetch_page',
        arguments: { url: origin.url('/article') },
      })) as CallToolResult;
      expect(page.structuredContent).toMatchObject({ title: 'Stdio page', truncated: false });
      const refused = (await client.callTool({
        name: 'fetch_page',
        arguments: { url: 'http://10.0.0.1/' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Error 403: /);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a key the server refuses is a tool error, not a crash', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      SCOUT_SEARCH_PROVIDERS: 'local',
      SCOUT_URL: remote.baseUrl,
      SCOUT_API_KEY: localKey,
      SCOUT_DATA_DIR: join(root, 'unused'),
    };
    const { client } = await stdioClient(env);
    try {
      const r = (await client.callTool({ name: 'web_search', arguments: { query: 'x' } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^Error 401: API key is not valid.*Retrying will not help/);
    } finally {
      await client.close();
    }
  });
});

describe('scout mcp (stdio): a stdin line over 10 MiB', () => {
  const env = () => ({
    PATH: process.env.PATH ?? '',
    SCOUT_URL: remote.baseUrl,
    SCOUT_API_KEY: remote.key,
    SCOUT_DATA_DIR: join(root, 'unused'),
  });
  const TOO_LONG =
    /^scout mcp: a line on stdin is longer than 10485760 bytes \(10 MiB\), the most one MCP message may take; stopped reading$/m;

  const run = (stdin: 'pipe' | number) => {
    const child = spawn(process.execPath, ['bin/scout.mjs', 'mcp'], {
      cwd: ROOT,
      env: env(),
      stdio: [stdin, 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (err += c));
    // The process may stop before taking all that is written.
    child.stdin?.on('error', () => undefined);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, out: () => out, err: () => err };
  };

  it('after answering what came before it, exits 1 and says why on stderr (stdin left open)', async () => {
    const p = run('pipe');
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    p.child.stdin!.write(`${JSON.stringify(init)}\n`);
    await within(
      20_000,
      `the initialize answer (stderr: ${p.err().slice(0, 300)})`,
      (async () => {
        while (!p.out().includes('\n')) await new Promise((r) => setTimeout(r, 50));
      })(),
    );
    // One byte over, no newline; stdin stays open, so only Scout can end this.
    p.child.stdin!.write(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"${'x'.repeat(10 * 1024 * 1024)}`,
    );
    const code = await within(20_000, 'scout mcp to stop', p.exited);
    expect(code).toBe(1);
    expect(p.err()).toMatch(TOO_LONG);
    expect(
      p
        .out()
        .split('\n')
        .filter((l) => l !== ''),
    ).toHaveLength(1);
    p.child.stdin!.destroy();
  });

  it('fed /dev/zero (no newline ever), exits 1 with the same reason', async () => {
    const zero = openSync('/dev/zero', 'r');
    try {
      const p = run(zero);
      expect(await within(20_000, 'scout mcp to stop', p.exited)).toBe(1);
      expect(p.err()).toMatch(TOO_LONG);
      expect(p.out()).toBe('');
    } finally {
      closeSync(zero);
    }
  });
});

describe('reserveStdout', () => {
  it('sends stray writes to stderr and protocol writes to stdout, until released', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c) => (out += c));
    stderr.on('data', (c) => (err += c));
    const reserved = reserveStdout(stdout, stderr);
    stdout.write('stray log line\n');
    await new Promise<void>((resolve) => reserved.protocol.write('{"jsonrpc":"2.0"}\n', () => resolve()));
    reserved.release();
    stdout.write('after\n');
    expect(out).toBe('{"jsonrpc":"2.0"}\nafter\n');
    expect(err).toBe('stray log line\n');
  });
});
