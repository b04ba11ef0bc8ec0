import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defined } from '../helpers/defined.ts';
import { descendants, freePort, get, ROOT, waitFor, within, type Exit } from '../helpers/scout-process.ts';
import { firstKey } from '../helpers/served-scout.ts';

/**
 * Scout as a user gets it: `npm pack`, the tarball installed into an empty folder with
 * `npm install <tgz>` (dependencies only, from the npm registry: the one test that needs it),
 * then `npx scout` there. Proves the package holds everything the compiled server needs
 * (dist/, its worker entries and SQL, docs/ for the starter corpus) and nothing it runs
 * needs a devDependency or a TypeScript loader. The install takes about a minute where
 * better-sqlite3 cannot download its prebuilt binding and compiles it.
 */

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const hasNpm = spawnSync(npm, ['--version'], { encoding: 'utf8' }).status === 0;
/**
 * Installing the tarball fetches its dependencies from the npm registry (and builds
 * better-sqlite3), the one thing in the suite that leaves the machine: it runs only when
 * SCOUT_TEST_PACK_INSTALL=1, which .ci/run sets (and .ci/summary.mjs requires), so `npm test`
 * on a laptop stays offline.
 */
const enabled = process.env.SCOUT_TEST_PACK_INSTALL === '1';
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

// A bound for a hung install only: building better-sqlite3 from source takes minutes on a 2-core
// machine, and more than 150 s while other test files run beside it.
const INSTALL_MS = 600_000;

/** The node process of `scout serve` among the processes below npx (npm exec → sh -c → node). */
function serverProcess(npxPid: number): number | undefined {
  return descendants(npxPid).find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return (
        basename(defined(argv[0], 'a program')).startsWith('node') &&
        argv.some((a) => a.endsWith('/scout')) &&
        argv.includes('serve')
      );
    } catch {
      return false; // ended meanwhile
    }
  });
}

describe.skipIf(!hasNpm || !enabled)('the packed package, installed from its tarball', () => {
  let dir = '';
  let app = '';
  let files: string[] = [];
  const pids = new Set<number>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scout-pack-'));
    // prepare runs here: it leaves the dist/ globalSetup built alone unless src/ changed.
    const packed = await run(npm, ['pack', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const packs = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const info = defined(packs[0], 'the packed tarball');
    files = info.files.map((f) => f.path);
    app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scout-pack-install-check', private: true }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, info.filename)], {
      cwd: app,
      timeout: INSTALL_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
  }, INSTALL_MS + 60_000);

  afterAll(() => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('holds the compiled code, its non-TypeScript files and the docs, not the sources', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/scout.mjs',
        'dist/cli/main.js',
        'dist/main.d.ts',
        'dist/fetch/extract-worker.mjs',
        'dist/store/sqlite/ad-event-writer-thread.mjs',
        'dist/store/postgres/migrations/001-core.sql',
        'docs/api.md',
        'LICENSE',
        'README.md',
        'package.json',
      ]),
    );
    expect(
      files.filter((f) => /^(src|test|bench|scripts)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
    ).toEqual([]);
    // What it runs comes from dependencies alone: no TypeScript loader was installed.
    expect(existsSync(join(app, 'node_modules', 'tsx'))).toBe(false);
  });

  it('`npx scout --version` prints the package version', async () => {
    const { stdout } = await run(npx, ['--no-install', 'scout', '--version'], { cwd: app, timeout: 30_000 });
    expect(stdout).toBe(`${version}\n`);
  });

  it('`npx scout serve` answers /healthz and a search with the first key (in its data folder, stdout being a pipe), and ends cleanly on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const child = spawn(npx, ['--no-install', 'scout', 'serve'], {
      cwd: app,
      env: {
        ...(process.env as Record<string, string>),
        PORT: String(port),
        HOST: '127.0.0.1',
        SCOUT_DATA_DIR: dataDir,
        SCOUT_STARTER_CORPUS: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pids.add(child.pid!);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

    await waitFor(30_000, '"Scout listening"', () => (out.includes('Scout listening') ? true : undefined)).catch(
      (e: Error) => {
        throw new Error(`${e.message}\nstdout: ${out}\nstderr: ${err}`);
      },
    );
    // npx runs the bin under `sh -c`, which does not pass SIGTERM on: a process manager (or
    // `kill`) signals the server itself, whose exit status sh and npx then hand back.
    const server = serverProcess(child.pid!);
    expect(server, 'the node process of `scout serve` below npx').toBeDefined();
    pids.add(server!);
    // stdout is a pipe, not a terminal: the first key is in the data folder, never in the log.
    const key = firstKey(dataDir);
    expect(out).not.toContain(key);
    expect(await get(port, '/healthz')).toBe(200);

    // The starter corpus (docs/ of the package) is indexed on first start.
    const titles = await waitFor(15_000, 'a search that finds the starter corpus', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'getting started' }),
        signal: AbortSignal.timeout(5000),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { title: string }[] };
      return body.results.length > 0 ? body.results.map((r) => r.title) : undefined;
    });
    expect(titles.length).toBeGreaterThan(0);

    process.kill(server!, 'SIGTERM');
    expect(await within(15_000, 'npx scout serve to exit after SIGTERM', exited), err).toEqual({
      code: 0,
      signal: null,
    });
    expect(existsSync(`/proc/${server}`)).toBe(false);
  });
});
