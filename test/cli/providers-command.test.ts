import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';
import { fixture, startMockUpstream, type MockUpstream } from '../providers/mock-upstream.ts';

/**
 * `scout providers check` against loopback stand-ins of the engines, serving the recorded
 * pages (test/fixtures/providers: each says which real page it models): an answer, a block
 * page, an answer that cannot be read, and an engine nobody answers for.
 */

let ddg: MockUpstream;
let mojeek: MockUpstream;
let wiki: MockUpstream;
let closedPort: number;
let dataDir: string;

/** A port that was just free: nothing listens there (connection refused). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeAll(async () => {
  ddg = await startMockUpstream(() => ({ body: fixture('duckduckgo', 'search.html'), contentType: 'text/html' }));
  mojeek = await startMockUpstream(() => ({ body: fixture('mojeek', 'blocked.html'), contentType: 'text/html' }));
  wiki = await startMockUpstream(() => ({ body: { batchcomplete: true, results: 'not where they should be' } }));
  closedPort = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'scout-providers-check-'));
});
afterAll(async () => {
  await Promise.all([ddg.close(), mojeek.close(), wiki.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const env = (providers: string): Record<string, string> => ({
  SCOUT_DATA_DIR: dataDir,
  SCOUT_SEARCH_PROVIDERS: providers,
  SCOUT_DUCKDUCKGO_URL: `${ddg.url}/html/`,
  SCOUT_MOJEEK_URL: `${mojeek.url}/search`,
  SCOUT_WIKIPEDIA_URL: `${wiki.url}/w/api.php`,
  SCOUT_MARGINALIA_URL: `http://127.0.0.1:${closedPort}/search`,
  SCOUT_PROVIDER_TIMEOUT_MS: '20000',
});

describe('scout providers check', () => {
  it('prints per provider ok / blocked / parse failed / unreachable with latency, and exits 1 when one did not answer', async () => {
    ddg.requests.length = 0;
    const r = await runScout(['providers', 'check'], env('duckduckgo,mojeek,wikipedia,marginalia,local'));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'search: duckduckgo, mojeek, wikipedia, marginalia, local (failover); probe query "python programming language"',
    );
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `)) ?? '';
    expect(row('duckduckgo')).toMatch(/^duckduckgo +ok +10 results +\d+ ms$/);
    expect(row('mojeek')).toMatch(/^mojeek +blocked +- +\d+ ms +blocked \(/);
    expect(row('wikipedia')).toMatch(/^wikipedia +parse failed +- +\d+ ms +malformed response/);
    expect(row('marginalia')).toMatch(/^marginalia +unreachable +- +\d+ ms +network error \(ECONNREFUSED\)$/);
    // An empty local index answers: ok with no result, not a failure.
    expect(row('local')).toMatch(/^local +ok +0 results +\d+ ms$/);
    // The probe query went to the engine.
    expect(ddg.requests[0]?.body).toContain('q=python+programming+language');
  });

  it('--json gives the same as objects; --query chooses the probe', async () => {
    ddg.requests.length = 0;
    const r = await runScout(['providers', 'check', '--json', '--query', 'rust async'], env('duckduckgo,mojeek'));
    expect(r.code).toBe(1);
    const results = JSON.parse(r.stdout) as { provider: string; health: string; results: number; ms: number }[];
    expect(results.map((x) => [x.provider, x.health, x.results])).toEqual([
      ['duckduckgo', 'ok', 10],
      ['mojeek', 'blocked', 0],
    ]);
    for (const x of results) expect(x.ms).toBeGreaterThanOrEqual(0);
    expect(ddg.requests[0]?.body).toContain('q=rust+async');
  });

  it('exits 0 when every provider answered', async () => {
    const r = await runScout(['providers', 'check'], env('duckduckgo,local'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nduckduckgo +ok +10 results/);
  });

  it('refuses an unknown subcommand, a stray argument and an empty query, as usage errors', async () => {
    expect((await runScout(['providers'], env('local'))).code).toBe(2);
    expect((await runScout(['providers', 'list'], env('local'))).stderr).toMatch(
      /scout providers: unknown command "list"/,
    );
    expect((await runScout(['providers', 'check', 'extra'], env('local'))).stderr).toMatch(/unexpected argument extra/);
    expect((await runScout(['providers', 'check', '--query', ' '], env('local'))).stderr).toMatch(
      /--query needs a non-empty text/,
    );
  });
});
