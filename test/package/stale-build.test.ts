import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/scout-process.ts';

/**
 * The rule that keeps a checkout from running an old dist/ (scripts/build.mjs, used by
 * bin/scout.mjs and the test run's globalSetup): dist/ is stale once anything under src/, or
 * a tsconfig, is newer than dist/.build-stamp, a deleted file included (its folder changed).
 */

const { staleReason } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
  staleReason: (root: string) => string | undefined;
};

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A checkout in miniature, every file and folder dated `t` (seconds), the stamp at `built`. */
function checkout(t: number, built: number | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'scout-stale-'));
  roots.push(root);
  mkdirSync(join(root, 'src', 'fetch'), { recursive: true });
  const files = [
    'src/main.ts',
    'src/fetch/extract-worker.mjs',
    'src/fetch/old.ts',
    'tsconfig.json',
    'tsconfig.build.json',
  ];
  for (const f of files) writeFileSync(join(root, f), '');
  for (const p of [...files, 'src/fetch', 'src']) utimesSync(join(root, p), t, t);
  if (built !== undefined) {
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', '.build-stamp'), '');
    utimesSync(join(root, 'dist', '.build-stamp'), built, built);
  }
  return root;
}

describe('a dist/ is stale', () => {
  it('when it was never built', () => {
    expect(staleReason(checkout(1000, undefined))).toBe('dist/ has not been built');
  });

  it('not when every source is older than its stamp', () => {
    expect(staleReason(checkout(1000, 2000))).toBeUndefined();
  });

  it('when a source file changed after the build, naming it', () => {
    const root = checkout(1000, 2000);
    utimesSync(join(root, 'src/fetch/extract-worker.mjs'), 3000, 3000);
    expect(staleReason(root)).toBe(`${join('src', 'fetch', 'extract-worker.mjs')} changed since dist/ was built`);
  });

  it('when a source file was deleted after the build (its folder changed)', () => {
    const root = checkout(1000, 2000);
    rmSync(join(root, 'src/fetch/old.ts'));
    expect(staleReason(root)).toBe(`${join('src', 'fetch')} changed since dist/ was built`);
  });

  it('when a tsconfig changed after the build', () => {
    const root = checkout(1000, 2000);
    utimesSync(join(root, 'tsconfig.build.json'), 3000, 3000);
    expect(staleReason(root)).toBe('tsconfig.build.json changed since dist/ was built');
  });
});

describe('bin/scout.mjs in an installed package (no src/ beside it)', () => {
  it('refuses in one line when dist/ is missing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'scout-nodist-'));
    roots.push(root);
    mkdirSync(join(root, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'scout.mjs'), join(root, 'bin', 'scout.mjs'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'scout', type: 'module' }));
    const r = await promisify(execFile)(process.execPath, [join(root, 'bin', 'scout.mjs'), '--version'], {
      timeout: 10_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'scout: dist/ is missing; build it with `npm run build` (`npm ci` does)\n',
    });
  });
});
