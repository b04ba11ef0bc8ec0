import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, killStarted, ROOT, scoutEnv, spawnScout, track, waitFor, within } from '../helpers/scout-process.ts';

// The first API key must never reach stdout when stdout is a log stream: log shippers keep
// every line. Real processes: stdout and stderr are pipes here, as under a container runtime.

const KEY = /scout_[0-9A-Za-z]{38}/;

afterEach(() => killStarted());

describe('scout serve, first start with stdout and stderr not terminals', () => {
  it('keeps the key out of stdout (every JSON log line included) and stderr, in a 0600 file that works', async () => {
    const port = await freePort();
    const env = scoutEnv(port);
    const p = spawnScout('node', env);
    await waitFor(60_000, 'Scout listening', () => (p.stdout().includes('Scout listening') ? true : undefined));
    track(p);
    const file = join(env.SCOUT_DATA_DIR, 'first-api-key.txt');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = KEY.exec(readFileSync(file, 'utf8'))?.[0];
    expect(key).toBeDefined();
    // Traffic, so that request log lines are written too.
    const res = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await within(15_000, 'scout serve to exit', p.exited)).toEqual({ code: 0, signal: null });

    const stdout = p.stdout();
    expect(stdout).not.toMatch(KEY);
    expect(p.stderr()).not.toMatch(KEY);
    const json = stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(json.some((l) => l.includes('"request"'))).toBe(true);
    for (const line of json) expect(line).not.toContain(key!);
    // What a person reading the log learns: which key and where it is.
    expect(stdout).toMatch(
      new RegExp(
        `Scout created your first API key \\(key_[0-9A-Za-z]+\\)\\. .* it is in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `,
      ),
    );
  });
});

describe('scout serve, first start on a terminal', () => {
  it('prints the key there, and writes no file', async () => {
    const port = await freePort();
    const env = scoutEnv(port);
    // script(1) gives the server a pseudo-terminal as stdout and stderr.
    const child = spawn('script', ['-qfec', `${JSON.stringify(process.execPath)} bin/scout.mjs serve`, '/dev/null'], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitFor(60_000, 'Scout listening', () => (out.includes('Scout listening') ? true : undefined));
      expect(out).toContain('Scout created your first API key (shown once; keep it):');
      expect(out).toMatch(KEY);
      expect(() => statSync(join(env.SCOUT_DATA_DIR, 'first-api-key.txt'))).toThrow(/ENOENT/);
    } finally {
      // Ctrl-C on the terminal: the server closes, then script ends.
      child.stdin.write('\x03');
      await within(15_000, 'script to exit', exited);
    }
  });
});
