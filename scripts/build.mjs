// Builds dist/ from src/: TypeScript 6 (tsconfig.build.json) emits the .js and .d.ts, the
// files under src/ that are not TypeScript (worker entries, SQL migrations) are copied beside
// them, and dist/.build-stamp records when the sources were read.
//   node scripts/build.mjs             build (npm run build, and `npm ci` through prepare)
//   node scripts/build.mjs --if-stale  build only when src/ changed since the last build
// A checkout must never run an old dist/: bin/scout.mjs and the test run's globalSetup call
// ensureFreshDist, which rebuilds when any file under src/ (or a tsconfig) is newer than the
// stamp. Builds take a lock and go to a folder of their own that replaces dist/ by rename, so
// processes started from dist/ meanwhile (other test runs, a serving Scout) never see it half
// written.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join('dist', '.build-stamp');
/** What the emitted files depend on besides src/ itself. */
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];
const LOCK = '.dist-build.lock';
/** A build takes seconds; a lock held this long belongs to a process that hung. */
const LOCK_WAIT_MS = 180_000;

/** The newest modification under `dir`: folders count too (a file deleted or renamed there). */
function newestUnder(dir, newest = { ms: 0, path: dir }) {
  const stat = statSync(dir);
  if (stat.mtimeMs > newest.ms) Object.assign(newest, { ms: stat.mtimeMs, path: dir });
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newestUnder(path, newest);
    else {
      const ms = statSync(path).mtimeMs;
      if (ms > newest.ms) Object.assign(newest, { ms, path });
    }
  }
  return newest;
}

/** Why dist/ cannot be run as it is, or undefined when it is as new as the sources. */
export function staleReason(root = ROOT) {
  let built;
  try {
    built = statSync(join(root, STAMP)).mtimeMs;
  } catch {
    return 'dist/ has not been built';
  }
  const newest = newestUnder(join(root, 'src'));
  for (const config of CONFIGS) {
    const ms = statSync(join(root, config)).mtimeMs;
    if (ms > newest.ms) Object.assign(newest, { ms, path: join(root, config) });
  }
  return newest.ms > built ? `${relative(root, newest.path)} changed since dist/ was built` : undefined;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function holderGone(lock) {
  let pid;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Taken a moment ago and the pid not yet written, or left by a process that died then.
    try {
      return Date.now() - statSync(lock).mtimeMs > 10_000;
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return e.code === 'ESRCH';
  }
}

/** Runs `fn` holding the build lock (a folder: mkdir is atomic), waiting for another build. */
function withLock(root, fn) {
  const lock = join(root, LOCK);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    if (holderGone(lock)) rmSync(lock, { recursive: true, force: true });
    else if (Date.now() > deadline)
      throw new Error(`scout build: ${LOCK} held for over ${LOCK_WAIT_MS / 1000} s; remove it if no build runs`);
    else sleep(200);
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function copyAssets(root, out) {
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, 'src', dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.endsWith('.ts')) {
        mkdirSync(join(out, dir), { recursive: true });
        cpSync(join(root, 'src', path), join(out, path));
      }
    }
  };
  walk('');
}

/**
 * Builds dist/ (holding the lock). Returns false when TypeScript reported errors: the files
 * are emitted and installed all the same, as vitest runs sources with type errors; `npx tsc
 * -p .` is the check. Throws when nothing could be emitted.
 */
function buildLocked(root) {
  const started = Date.now();
  const next = join(root, `.dist-next-${process.pid}`);
  rmSync(next, { recursive: true, force: true });
  const tsc = createRequire(join(root, 'package.json')).resolve('@typescript/typescript6/bin/tsc6');
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], {
    cwd: root,
    encoding: 'utf8',
  });
  // Exit status 2: errors reported, files emitted all the same.
  if (run.status !== 0 && run.status !== 2) {
    rmSync(next, { recursive: true, force: true });
    throw new Error(`scout build: tsc failed (${run.status ?? run.signal})\n${run.stdout}${run.stderr}`);
  }
  copyAssets(root, next);
  // The stamp carries the time the sources were read: a file saved during the build is newer.
  writeFileSync(join(next, '.build-stamp'), `${new Date(started).toISOString()}\n`);
  utimesSync(join(next, '.build-stamp'), started / 1000, started / 1000);
  const dist = join(root, 'dist');
  const old = join(root, `.dist-old-${process.pid}`);
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(next, dist);
  rmSync(old, { recursive: true, force: true });
  if (run.status === 2)
    process.stderr.write(`scout build: TypeScript reported errors (dist/ was built anyway):\n${run.stdout}`);
  return run.status === 0;
}

/** Builds dist/ unconditionally. False when TypeScript reported errors. */
export function build(root = ROOT) {
  return withLock(root, () => buildLocked(root));
}

/**
 * Builds dist/ when the sources changed since the last build (checked again under the lock:
 * a concurrent build may just have done it). Says so on `log` (stderr) when it builds.
 */
export function ensureFreshDist(root = ROOT, log = process.stderr) {
  if (staleReason(root) === undefined) return;
  withLock(root, () => {
    const reason = staleReason(root);
    if (reason === undefined) return;
    log.write(`scout: ${reason}: building dist/ from src/ (npm run build)…\n`);
    buildLocked(root);
  });
}

// Run as a script (not imported by bin/scout.mjs); realpath: the checkout may sit behind a symlink.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  if (process.argv.includes('--if-stale')) ensureFreshDist();
  else process.exitCode = build() ? 0 : 1;
}
