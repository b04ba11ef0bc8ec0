import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killStarted, scoutEnv, spawnScout, within } from '../helpers/scout-process.ts';

// A start that cannot happen says why in one line naming the setting to change, and the
// process ends (exit 1) instead of printing a stack trace or staying half open.

let occupied: Server | undefined;
afterEach(async () => {
  killStarted();
  await new Promise((resolve) => (occupied ? occupied.close(resolve) : resolve(undefined)));
  occupied = undefined;
});

/** Runs `scout serve` to its end (bounded) and checks the one-line refusal. */
async function refusal(env: Record<string, string>): Promise<string> {
  const p = spawnScout('node', env);
  expect(await within(20_000, 'scout serve to exit', p.exited)).toEqual({ code: 1, signal: null });
  // Accepted settings' warnings come first (tests search the local index only, which warns).
  const stderr = p
    .stderr()
    .split('\n')
    .filter((l) => !l.startsWith('scout: warning: '))
    .join('\n');
  expect(stderr).not.toContain('    at ');
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(p.stdout()).not.toContain('Scout listening');
  return stderr.trimEnd();
}

describe('scout serve start-up errors', () => {
  it('names the address and PORT/HOST when the port is taken', async () => {
    occupied = createServer();
    await new Promise<void>((resolve) => occupied!.listen(0, '127.0.0.1', resolve));
    const { port } = occupied.address() as { port: number };
    expect(await refusal(scoutEnv(port))).toBe(
      `scout: cannot listen on 127.0.0.1:${port}: address already in use (set PORT or HOST)`,
    );
  });

  it('names SCOUT_DATA_DIR, the path and the reason when the folder cannot be created', async () => {
    // Tests run as root, which chmod does not stop: a path below a regular file fails for anyone.
    const file = join(mkdtempSync(join(tmpdir(), 'scout-datadir-')), 'file');
    writeFileSync(file, 'not a folder');
    const dir = join(file, 'sub');
    const line = await refusal(scoutEnv(0, { SCOUT_DATA_DIR: dir }));
    expect(line).toMatch(/^scout: cannot use SCOUT_DATA_DIR /);
    expect(line).toContain(dir);
    expect(line).toMatch(/not a folder/);
  });

  it('names SCOUT_DATA_DIR when it is a file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'scout-datadir-')), 'file');
    writeFileSync(file, 'not a folder');
    const line = await refusal(scoutEnv(0, { SCOUT_DATA_DIR: file }));
    expect(line).toMatch(/^scout: cannot use SCOUT_DATA_DIR /);
    expect(line).toContain(file);
  });
});
