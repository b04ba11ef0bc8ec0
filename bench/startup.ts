/**
 * Start-up of `scout serve` run from the compiled dist/ beside the same sources run through
 * the tsx loader (what bin/scout.mjs did before issue 14):
 *   npm run bench:startup [-- --rounds 5]
 * Each start is a new process with a fresh data folder, the starter corpus off (indexing
 * docs/ costs both variants the same and would only blur the difference) and the default
 * extraction workers, which load their code before Scout listens. Measured per start: the
 * time from spawn to the "Scout listening" line, and the process's RSS (Linux VmRSS, worker
 * threads included) once GET /healthz answers. The two variants alternate, round by round,
 * so drift on the machine falls on both; printed are the medians and the ratio.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, ROOT, scoutEnv, waitHealthy, within } from '../test/helpers/scout-process.ts';
import { defined } from '../test/helpers/defined.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const ROUNDS = Number(values.rounds);

/**
 * What bin/scout.mjs ran before issue 14: tsx registered in the process, src/ run as it is. A
 * file rather than `node -e`: worker threads inherit the process's flags, --input-type too.
 */
const LOADER_ENTRY = join(mkdtempSync(join(tmpdir(), 'scout-bench-startup-')), 'tsx-entry.mjs');
writeFileSync(
  LOADER_ENTRY,
  [
    `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};`,
    'register();',
    `const { runCli } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/cli/main.ts')).href)});`,
    "process.exitCode = await runCli(['serve'], { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });",
  ].join('\n'),
);

const VARIANTS = {
  compiled: ['bin/scout.mjs', 'serve'],
  'tsx loader': [LOADER_ENTRY],
} as const;
type Variant = keyof typeof VARIANTS;

interface Start {
  ms: number;
  rssMb: number;
}

function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (kb === null) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb[1]) / 1024;
}

async function startOnce(variant: Variant): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...VARIANTS[variant]], {
    cwd: ROOT,
    env: scoutEnv(port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  try {
    const ms = await within(
      60_000,
      `${variant}: the "Scout listening" line`,
      new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (c) => {
          out += c;
          if (out.includes('Scout listening')) resolve(performance.now() - started);
        });
        void exited.then((code) => reject(new Error(`${variant} exited (${code}) before listening: ${err.trim()}`)));
      }),
    );
    await waitHealthy(port);
    return { ms, rssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await within(10_000, `${variant}: exit after SIGTERM`, exited);
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const at = (i: number): number => defined(s[i], `sample ${i}`);
  return s.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
};

// The compiled variant needs a dist/ as new as src/ (bin/scout.mjs refuses an old one).
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) throw new Error('the build failed');

const results: Record<Variant, Start[]> = { compiled: [], 'tsx loader': [] };
// One unmeasured start of each warms the OS file cache (node_modules, dist/, src/).
for (const variant of Object.keys(VARIANTS) as Variant[]) await startOnce(variant);
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of Object.keys(VARIANTS) as Variant[]) results[variant].push(await startOnce(variant));
}

console.log(
  `scout serve start-up, median of ${ROUNDS} starts each (spawn → "Scout listening"; RSS once /healthz answers)`,
);
const row = (variant: Variant) => {
  const ms = median(results[variant].map((r) => r.ms));
  const rss = median(results[variant].map((r) => r.rssMb));
  console.log(
    `  ${variant.padEnd(11)} ${ms.toFixed(0).padStart(6)} ms  ${rss.toFixed(1).padStart(7)} MB RSS   (starts: ${results[variant].map((r) => r.ms.toFixed(0)).join(', ')} ms)`,
  );
  return { ms, rss };
};
const compiled = row('compiled');
const loader = row('tsx loader');
console.log(
  `  compiled / tsx loader: ${(compiled.ms / loader.ms).toFixed(2)}× the time, ${(compiled.rss / loader.rss).toFixed(2)}× the RSS`,
);
rmSync(dirname(LOADER_ENTRY), { recursive: true, force: true });
