import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';
import { defined } from '../helpers/defined.ts';
import { freePort, killStarted, scoutEnv, spawnScout, track, waitHealthy, within } from '../helpers/scout-process.ts';

afterEach(() => killStarted());

/** Every stored document with its id, time of writing and text, and the index's last change number. */
function storedDocuments(dataDir: string): unknown {
  const db = new Database(join(dataDir, 'index.db'), { readonly: true, fileMustExist: true });
  try {
    return {
      documents: db
        .prepare(
          'SELECT d.id, d.url, d.source, d.indexed_at, t.title, t.content FROM documents d JOIN document_texts t ON t.id = d.id ORDER BY d.id',
        )
        .all(),
      lastChange: db.prepare('SELECT max(seq) FROM index_changes').pluck().get(),
    };
  } finally {
    db.close();
  }
}

// Issue 23: the Claude Desktop example of docs/mcp.md (`scout mcp` in-process on the
// server's own data folder) rewrote the running server's starter-corpus links.
describe('scout mcp in-process on a running server’s data folder', () => {
  it('leaves the server’s stored documents as they were', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const env = scoutEnv(port, {
      SCOUT_STARTER_CORPUS: 'true',
      SCOUT_FETCH_WORKERS: '1',
      SCOUT_RATE_LIMIT_RPM: '100000',
    });
    const dataDir = env.SCOUT_DATA_DIR;
    try {
      const key = (await runScout(['keys', 'create', '--name', 'desktop'], env)).stdout.trim();
      const server = spawnScout('node', env);
      await waitHealthy(port);
      track(server);
      const before = storedDocuments(dataDir) as { documents: { url: string }[] };
      expect(before.documents.length).toBeGreaterThan(10);
      expect(before.documents.every((d) => d.url.startsWith('https://scout.invalid/docs/'))).toBe(true);

      // As Claude Desktop starts it: no SCOUT_URL, no PORT, the server's SCOUT_DATA_DIR.
      const { PORT: _port, HOST: _host, ...mcpEnv } = env;
      const mcp = await within(
        30_000,
        'scout mcp to start and end with its stdin',
        runScout(['mcp'], { ...mcpEnv, SCOUT_API_KEY: key }),
      );
      expect(mcp.code, mcp.stderr).toBe(0);
      expect(storedDocuments(dataDir)).toEqual(before);

      // The server still finds its docs, at urls its fetch answers.
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const found = await fetch(`http://127.0.0.1:${port}/v1/search`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ query: 'rate limits', max_results: 1 }),
      });
      const hit = defined(((await found.json()) as { results: { url: string }[] }).results[0], 'a search result');
      expect(hit.url).toMatch(/^https:\/\/scout\.invalid\/docs\/[a-z-]+\.md/);
      const page = await fetch(`http://127.0.0.1:${port}/v1/fetch`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ url: hit.url }),
      });
      expect(page.status).toBe(200);
      server.child.kill('SIGTERM');
      await within(15_000, 'the server to stop', server.exited);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
