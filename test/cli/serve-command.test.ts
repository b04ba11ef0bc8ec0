import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/scout.mjs', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the process was still running at the deadline (or when `stopWhen` matched) and we ended it. */
  stopped: boolean;
}

/**
 * The real binary in a child process. If it has not exited by `deadlineMs`, or once its stdout
 * matches `stopWhen`, it gets SIGTERM (what `scout serve` stops on). The default deadline is
 * far above the second or so a command that exits takes, for the machine may be busy (issue 24).
 */
function scout(
  args: string[],
  env: Record<string, string>,
  o: { cwd?: string; deadlineMs?: number; stopWhen?: RegExp } = {},
): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scout-serve-'));
  // Port 0 on loopback: should a command start serving by mistake, nothing public is bound.
  const base = {
    PATH: process.env.PATH ?? '',
    SCOUT_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SCOUT_STARTER_CORPUS: 'false',
    // One extraction worker (the default is one per CPU), at normal priority: see scoutEnv.
    SCOUT_FETCH_WORKERS: '1',
    SCOUT_FETCH_WORKER_NICE: '0',
    // The local index: tests never reach the default web engines.
    SCOUT_SEARCH_PROVIDERS: 'local',
  };
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: o.cwd ?? dataDir,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let stopped = false;
  const stop = () => {
    if (child.exitCode === null && !stopped) {
      stopped = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', (c) => {
    stdout += c;
    if (o.stopWhen?.test(stdout)) stop();
  });
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(stop, o.deadlineMs ?? 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, stopped });
    }),
  );
}

describe('node bin/scout.mjs', () => {
  it.each([['--help'], ['-h']])('serve %s prints its usage and exits 0 at once, without listening', async (flag) => {
    const r = await scout(['serve', flag], {}, { deadlineMs: 30_000 });
    expect(r.stopped).toBe(false);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: scout serve/);
    expect(r.stdout).not.toContain('listening');
  });

  it('--version prints the package version from any working directory', async () => {
    const r = await scout(['--version'], {}, { cwd: tmpdir() });
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n`, stopped: false });
  });

  it('serve says what it searches, and warns when no provider searches the web', async () => {
    const local = await scout(['serve'], {}, { stopWhen: /^search: .*\n/m, deadlineMs: 60_000 });
    expect(local.stdout).toMatch(/Scout listening on [^\n]+\nsearch: local\n/);
    expect(local.stderr.split('\n').filter((l) => l.startsWith('scout: warning: '))).toEqual([
      'scout: warning: SCOUT_SEARCH_PROVIDERS=local has no web search provider: searches find only what was indexed on this server, not the web (unset it for the keyless web engines, or list providers: docs/providers.md)',
    ]);
    // A web provider listed (not called: nothing is searched): no warning, the mode named.
    const web = await scout(
      ['serve'],
      { SCOUT_SEARCH_PROVIDERS: 'marginalia,local', SCOUT_SEARCH_MODE: 'fusion' },
      { stopWhen: /^search: .*\n/m, deadlineMs: 60_000 },
    );
    expect(web.stdout).toMatch(/\nsearch: marginalia, local \(fusion\)\n/);
    expect(web.stderr).not.toContain('scout: warning:');
  });

  it('serve warns on stderr, in one line naming them, that SCOUT_FETCH_ALLOW_CIDRS ranges are open', async () => {
    const r = await scout(
      ['serve'],
      { SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32,10.0.0.0/8' },
      { stopWhen: /Scout listening/, deadlineMs: 60_000 },
    );
    expect(r.stdout).toContain('Scout listening');
    const lines = r.stderr.split('\n').filter((l) => l.includes('SCOUT_FETCH_ALLOW_CIDRS'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('127.0.0.2/32, 10.0.0.0/8');
  });

  it('serve refuses SCOUT_FETCH_ALLOW_CIDRS=0.0.0.0/0 with one line naming the variable, before listening', async () => {
    const r = await scout(
      ['serve'],
      { SCOUT_FETCH_ALLOW_CIDRS: '0.0.0.0/0' },
      { stopWhen: /Scout listening/, deadlineMs: 60_000 },
    );
    expect(r.stopped).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('listening');
    expect(r.stderr).toMatch(/^scout: SCOUT_FETCH_ALLOW_CIDRS [^\n]*0\.0\.0\.0\/0[^\n]*\n$/);
  });
});
