import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { loadScoutConfig } from '../../src/scout-settings.ts';
import { createScout, type Scout, type ScoutOptions } from '../../src/compose.ts';
import { ErrorBody } from '../../src/schemas/error.ts';
import { expectShape, isFirecrawlCall, isTavilyCall, schemaFor } from './strict-schemas.ts';

/**
 * `T` is the body the test expects. request() checks the body against the strict wire schema of
 * the route (ErrorBody for every 4xx/5xx) where there is one; the type is the caller's word.
 */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestScout {
  scout: Scout;
  baseUrl: string;
  dataDir: string;
  key: string;
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** Raw log text (for "never logged" checks). */
  logText(): string;
  request<T = unknown>(
    method: string,
    path: string,
    init?: { body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null },
  ): Promise<ApiResponse<T>>;
  restart(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/** A small docs folder so starter-corpus searches are deterministic. */
export function makeDocsDir(root: string): string {
  const dir = join(root, 'docs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'getting-started.md'),
    '# Getting started with Scout\n\nScout is a web search API for agents. Start the server and search the local index.\n\n## API keys\n\nEvery request needs an API key in the Authorization header.\n',
  );
  writeFileSync(
    join(dir, 'fetch.md'),
    '# Fetching pages\n\nThe fetch endpoint returns the main content of a page as markdown.\n',
  );
  return dir;
}

/**
 * Starts a real Scout (real SQLite files in a temp folder, real HTTP on loopback) and
 * validates every response against the strict wire schemas.
 */
export async function startTestScout(
  env: Record<string, string> = {},
  options: Partial<ScoutOptions> = {},
): Promise<TestScout> {
  const root = mkdtempSync(join(tmpdir(), 'scout-test-'));
  const dataDir = join(root, 'data');
  const docsDir = options.docsDir ?? makeDocsDir(root);
  let logText = '';
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      const s = chunk.toString();
      logText += s;
      for (const line of s.split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      cb();
    },
  });

  const boot = async (extra: Record<string, string>) => {
    // One extraction worker unless the test asks for more: each worker loads its code at
    // start (about 1.8 s of CPU from the sources), and most tests fetch a page or none. At
    // normal priority unless asked: niced (the default, 10), it gets a tenth of a core that
    // another process keeps busy, and its start and pages take ten times as long.
    const config = loadScoutConfig({
      SCOUT_DATA_DIR: dataDir,
      SCOUT_LOG_LEVEL: 'info',
      SCOUT_FETCH_WORKERS: '1',
      SCOUT_FETCH_WORKER_NICE: '0',
      // The local index only: tests never reach the web engines of the default.
      SCOUT_SEARCH_PROVIDERS: 'local',
      ...env,
      ...extra,
    });
    // A resolver comes with a landing probe (ScoutOptions says so): the caller passed both or neither.
    const scout = await createScout(config, { ...options, docsDir, logStream } as ScoutOptions);
    await scout.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = scout.app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    return { scout, baseUrl: `http://127.0.0.1:${port}` };
  };

  let { scout, baseUrl } = await boot({});
  const key = (await scout.keys.create('test')).key;

  const t: TestScout = {
    get scout() {
      return scout;
    },
    get baseUrl() {
      return baseUrl;
    },
    dataDir,
    key,
    logs,
    logText: () => logText,
    async request<T>(
      method: string,
      path: string,
      init: Parameters<TestScout['request']>[2] = {},
    ): Promise<ApiResponse<T>> {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      const k = init.key === undefined ? key : init.key;
      if (k !== null && !('authorization' in headers) && !('x-api-key' in headers))
        headers.authorization = `Bearer ${k}`;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(baseUrl + path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await res.text();
      let parsed: unknown = text;
      if ((res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
      const shape = isTavilyCall(method, path, /json/i.test(headers['content-type'] ?? ''))
        ? 'tavily'
        : isFirecrawlCall(method, path)
          ? 'firecrawl'
          : undefined;
      const schema = schemaFor(path, res.status, shape, method);
      if (schema) expectShape(schema, parsed);
      // The compat shapes' errors are their own (TavilyError, FirecrawlError), checked by schemaFor.
      if (res.status >= 400 && shape === undefined) {
        expectShape(ErrorBody, parsed);
        expect((parsed as ErrorBody).error.status).toBe(res.status);
      }
      expect(res.headers.get('x-request-id')).toBeTruthy();
      return { status: res.status, headers: res.headers, body: parsed as T, text };
    },
    async restart(extra = {}) {
      await scout.close();
      ({ scout, baseUrl } = await boot(extra));
    },
    async close() {
      await scout.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return t;
}
