import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { defined } from './helpers/defined.ts';
import { startServer } from '../src/main.ts';

describe('first start', () => {
  it('creates and prints one key on the terminal with a curl line that works, then never again', async () => {
    const env = {
      SCOUT_DATA_DIR: mkdtempSync(join(tmpdir(), 'scout-main-')),
      PORT: '0',
      HOST: '127.0.0.1',
      SCOUT_LOG_LEVEL: 'silent',
      // One extraction worker (the default is one per CPU), at normal priority: see scoutEnv.
      SCOUT_FETCH_WORKERS: '1',
      SCOUT_FETCH_WORKER_NICE: '0',
      // The local index (not the default web engines): tests never leave the machine.
      SCOUT_SEARCH_PROVIDERS: 'local',
    };
    const out = new PassThrough();
    const terminal = new PassThrough();
    let logged = '';
    let text = '';
    out.on('data', (c) => (logged += c));
    terminal.on('data', (c) => (text += c));
    const scout = await startServer(env, out, { terminal });
    try {
      expect(logged).not.toMatch(/scout_[0-9A-Za-z]{38}/);
      expect(existsSync(join(env.SCOUT_DATA_DIR, 'first-api-key.txt'))).toBe(false);
      const key = /(scout_[0-9A-Za-z]{38})/.exec(text)?.[1];
      expect(key).toBeDefined();
      expect(text).toContain(`curl -s http://127.0.0.1:`);
      const addr = scout.app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const res = await fetch(`http://127.0.0.1:${port}/v1/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'getting started' }),
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.results.length).toBeGreaterThan(0); // the starter corpus (docs/) answers at once
      // Starter results point at https://scout.invalid/docs/…, which Scout's own fetch answers.
      expect(body.results[0].url).toMatch(/^https:\/\/scout\.invalid\/docs\//);
      const doc = await fetch(`http://127.0.0.1:${port}/v1/fetch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: body.results[0].url }),
      });
      expect(doc.status).toBe(200);
      // Sections of one page differ only by fragment and must not be merged away.
      const many = await fetch(`http://127.0.0.1:${port}/v1/search?q=api&max_results=20`, {
        headers: { 'x-api-key': key! },
      });
      const urls: string[] = (await many.json()).results.map((r: { url: string }) => r.url);
      expect(urls.length).toBeGreaterThan(new Set(urls.map((u) => u.replace(/#.*/, ''))).size);
    } finally {
      await scout.close();
    }
    let second = '';
    const out2 = new PassThrough();
    out2.on('data', (c) => (second += c));
    // The second start also turns the anonymous tier on: its start-up line says so (off, none).
    const again = await startServer({ ...env, SCOUT_ANONYMOUS_RPM: '30', SCOUT_ANONYMOUS_CIDRS: '127.0.0.0/8' }, out2);
    await again.close();
    expect(second).not.toMatch(/scout_[0-9A-Za-z]{38}/);
    expect(logged).not.toMatch(/^anonymous:/m);
    expect(second).toMatch(
      /^search: local\nanonymous: requests without a key allowed, 30 requests\/min per address \(IPv6 \/56\), from 127\.0\.0\.0\/8; 1000 of 10000 search units a month$/m,
    );
  });
});

describe('first start without a terminal (stdout goes to a log shipper)', () => {
  it('writes the key to a 0600 file in the data folder and names only the file and the key id on stdout', async () => {
    const env = {
      SCOUT_DATA_DIR: mkdtempSync(join(tmpdir(), 'scout-main-')),
      PORT: '0',
      HOST: '127.0.0.1',
      SCOUT_LOG_LEVEL: 'info',
      SCOUT_FETCH_WORKERS: '1',
      SCOUT_FETCH_WORKER_NICE: '0',
      // The local index (not the default web engines): tests never leave the machine.
      SCOUT_SEARCH_PROVIDERS: 'local',
    };
    const out = new PassThrough();
    let logged = '';
    out.on('data', (c) => (logged += c));
    const scout = await startServer(env, out);
    try {
      const file = join(env.SCOUT_DATA_DIR, 'first-api-key.txt');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = /(scout_[0-9A-Za-z]{38})/.exec(readFileSync(file, 'utf8'))?.[1];
      expect(key).toBeDefined();
      expect(logged).not.toContain(key!);
      const id = defined((await scout.stores.keys.list())[0], 'the first key').id;
      expect(logged).toContain(
        `Scout created your first API key (${id}). stdout is not a terminal, so the key is not printed here: it is in ${file} (readable by its owner only)`,
      );
      const addr = scout.app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const res = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    } finally {
      await scout.close();
    }
  });
});

describe('a start that fails half way', () => {
  it('closes what it opened and names the missing setting', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scout-main-'));
    const env = {
      SCOUT_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SCOUT_LOG_LEVEL: 'silent',
      SCOUT_SEARCH_PROVIDERS: 'brave',
      SCOUT_FETCH_WORKERS: '1',
      SCOUT_FETCH_WORKER_NICE: '0',
    };
    await expect(startServer(env, new PassThrough())).rejects.toThrow(/SCOUT_BRAVE_API_KEY must be set/);
    // The SQLite files were closed: a normal start on the same folder works at once.
    const scout = await startServer({ ...env, SCOUT_SEARCH_PROVIDERS: 'local' }, new PassThrough());
    await scout.close();
  });
});
