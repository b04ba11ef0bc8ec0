/**
 * Memory of Scout under hostile fetch load:
 *   npm run bench:fetch-memory [-- --count 50] [-- --unlimited]
 *   npm run bench:fetch-memory -- --type text     (or html; default both)
 * A real Scout in a child process (bench/fetch-memory-server.ts, default settings) and a
 * loopback origin here. Three bursts of `count` concurrent POST /v1/fetch, each to its own
 * host name: 9 MB pages; decompression bombs (a gzip of ~70 KB and a brotli of a few
 * hundred bytes, each 21 MB of markup decoded); both at once. Each burst is run with the
 * bodies served as text/plain (extraction is a pass-through, so the figure is the fetch
 * layer's: buffers, decoding, the limits) and as HTML (the whole pipeline, extraction of
 * megabytes of markup included). Printed, all from this run:
 * the idle Scout's RSS (after start, before any fetch) beside the peak RSS of each burst
 * (Linux VmHWM, reset before each burst through /proc/<pid>/clear_refs), the statuses and
 * the wall time. --unlimited runs the same bursts with the
 * limits out of the way (SCOUT_FETCH_CONCURRENCY, SCOUT_FETCH_QUEUE 1024, SCOUT_FETCH_BUFFER_MB
 * 4096) to show what they save; it can take several GB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defined } from '../test/helpers/defined.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '50' },
    unlimited: { type: 'boolean', default: false },
    type: { type: 'string', default: 'both' },
  },
});
if (!['text', 'html', 'both'].includes(values.type)) throw new Error('--type must be text, html or both');
const COUNT = Number(values.count);
const MB = 1024 * 1024;

/** Markup a page is made of: paragraphs of ordinary prose, so extraction does real work. */
function prose(bytes: number): string {
  const para =
    '<p>The survey team measured the glacier twice a day and logged meltwater, albedo and air temperature at each stake. </p>\n';
  return `<!doctype html><html><head><title>Big page</title></head><body><article><h1>Big page</h1>\n${para.repeat(Math.floor(bytes / para.length))}</article></body></html>`;
}

const page9 = Buffer.from(prose(9 * MB));
const bomb = Buffer.from(prose(21 * MB));
const gzipBomb = gzipSync(bomb, { level: 9 });
const brotliBomb = brotliCompressSync(bomb, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });

// /text/… serves the bytes as text/plain (extraction is a pass-through: what the fetch layer
// and its limits cost), /html/… as HTML (the whole pipeline, extraction included).
const origin = createServer((req, res) => {
  const [, type, path] = defined((req.url ?? '/').split('?', 1)[0], 'the path before any query').split('/');
  const headers = { 'content-type': type === 'html' ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8' };
  if (path === 'page') res.writeHead(200, headers).end(page9);
  else if (path === 'gzip-bomb') res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(gzipBomb);
  else if (path === 'br-bomb') res.writeHead(200, { ...headers, 'content-encoding': 'br' }).end(brotliBomb);
  else res.writeHead(404).end();
});
await new Promise<void>((resolve) => origin.listen(0, '127.0.0.2', resolve));
const originPort = (origin.address() as AddressInfo).port;

interface Child {
  proc: ChildProcess;
  base: string;
  key: string;
}

async function startScout(env: Record<string, string>): Promise<Child> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./fetch-memory-server.ts', import.meta.url).pathname],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`bench Scout exited with ${code}`)));
  });
  const { port, key } = JSON.parse(first) as { port: number; key: string };
  return { proc, base: `http://127.0.0.1:${port}`, key };
}

const status = (pid: number, field: string): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024; // kB → MB
};

interface Burst {
  name: string;
  peakMb: number;
  statuses: Record<number, number>;
  seconds: number;
}

async function burst(child: Child, name: string, paths: string[]): Promise<Burst> {
  const pid = child.proc.pid!;
  writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  const started = performance.now();
  const answers = await Promise.all(
    paths.map(async (path, i) => {
      const res = await fetch(`${child.base}/v1/fetch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${child.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `http://h${i}-${Math.random().toString(36).slice(2, 8)}.bench:${originPort}${path}`,
          max_chars: 200_000,
        }),
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  const statuses: Record<number, number> = {};
  for (const code of answers) statuses[code] = (statuses[code] ?? 0) + 1;
  return { name, peakMb: status(pid, 'VmHWM'), statuses, seconds: (performance.now() - started) / 1000 };
}

async function measure(label: string, env: Record<string, string>, types: string[]): Promise<void> {
  const child = await startScout(env);
  await new Promise((r) => setTimeout(r, 1000)); // let start-up garbage settle
  const idle = status(child.proc.pid!, 'VmRSS');
  console.log(`\n${label}`);
  console.log(`  idle Scout RSS (baseline)                         ${idle.toFixed(0).padStart(6)} MB`);
  for (const type of types) {
    const pages = Array.from({ length: COUNT }, () => `/${type}/page`);
    const bombs = Array.from({ length: COUNT }, (_, i) => (i % 2 === 0 ? `/${type}/gzip-bomb` : `/${type}/br-bomb`));
    for (const [name, paths] of [
      [`${COUNT} x 9 MB ${type} pages`, pages],
      [`${COUNT} x ${type} bombs (21 MB decoded)`, bombs],
      [`${type}: both at once (${2 * COUNT} fetches)`, [...pages, ...bombs]],
    ] as const) {
      const b = await burst(child, name, [...paths]);
      const codes = Object.entries(b.statuses)
        .map(([s, n]) => `${n}x${s}`)
        .join(' ');
      console.log(
        `  ${b.name.padEnd(44)} peak ${b.peakMb.toFixed(0).padStart(6)} MB (+${(b.peakMb - idle).toFixed(0)} MB)  ${codes}; ${b.seconds.toFixed(1)} s`,
      );
    }
  }
  child.proc.kill('SIGTERM');
  await new Promise((r) => child.proc.once('exit', r));
}

console.log(
  `origin: 9 MB page; bombs ${(gzipBomb.length / 1024).toFixed(1)} KB gzip and ${brotliBomb.length} B brotli, each ${(bomb.length / MB).toFixed(0)} MB decoded`,
);
const types = values.type === 'both' ? ['text', 'html'] : [values.type];
await measure('default limits', {}, types);
if (values.unlimited) {
  // Text only: HTML extraction of 100 bodies at once would take many GB and minutes.
  await measure(
    'limits out of the way (concurrency and queue 1024, buffer 4096 MB), text only',
    {
      SCOUT_FETCH_CONCURRENCY: '1024',
      SCOUT_FETCH_QUEUE: '1024',
      SCOUT_FETCH_BUFFER_MB: '4096',
    },
    ['text'],
  );
}
origin.close();
