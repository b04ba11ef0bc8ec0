/**
 * npm run bench:fetch -- <dataset dir> [--seconds 4] [--rounds 3] [--docs 2000]
 *
 * (a) POST /v1/fetch throughput over the extraction development pages (the dataset folder:
 *     ground-truth.json and html/<id>.html.gz, never copied into the repo), served by a
 *     loopback fixture, at concurrency 1, 2, 4 and 8: extraction in the worker pool against
 *     extraction on the main thread, two real Scouts, alternating rounds, medians.
 *     Goal (issue 13): the pool >= 1.6x the main thread at concurrency 4 on 2 cores.
 * (b) POST /v1/search p99 on the pool Scout while 8 pathological fetches run (a few-KB
 *     brotli body that decodes to 20 MB of dense markup, fetched again and again), against
 *     the same search idle, alternating. Goal: <= 2x the idle p99. The main-thread Scout is
 *     measured the same way for reference.
 */
import { createServer, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { extractDocument } from '../src/extract/extract-document.ts';
import { loadDataset, type BenchPage } from './extract-dataset.ts';
import { benchScout, load, median, queries, querySequence } from './load-kit.ts';
import { defined } from '../test/helpers/defined.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    docs: { type: 'string', default: '2000' },
  },
});
const dir = positionals[0];
if (dir === undefined)
  throw new Error('usage: npm run bench:fetch -- <dataset dir> [--seconds 4] [--rounds 3] [--docs 2000]');
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const DOCS = Number(values.docs);
const CONCURRENCY = [1, 2, 4, 8];
const HOSTILE = 8;
const FIXTURE_HOST = '127.0.0.2';

/** The dataset's pages at /p/<n>, and one decompression bomb of dense markup at /bomb. */
function startFixture(pages: BenchPage[]): Promise<{ server: Server; origin: string }> {
  const bomb = brotliCompressSync(Buffer.from('<p>&nbsp;<br></p>'.repeat((20 * 1024 * 1024) / 17)), {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 11 },
  });
  const server = createServer((req, res) => {
    if (req.url === '/bomb') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-encoding': 'br',
        'content-length': bomb.length,
      });
      res.end(bomb);
      return;
    }
    const page = pages[Number(req.url?.slice('/p/'.length))];
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.body.length });
    res.end(page.body);
  });
  return new Promise((resolve) =>
    server.listen(0, FIXTURE_HOST, () => {
      const { port } = server.address() as { port: number };
      resolve({ server, origin: `http://${FIXTURE_HOST}:${port}` });
    }),
  );
}

interface Target {
  url: string;
  key: string;
}

async function fetchOnce(t: Target, pageUrl: string): Promise<number> {
  const res = await fetch(`${t.url}/v1/fetch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: pageUrl, max_chars: 200_000 }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Pages fetched per second with `c` callers walking one shared sequence of the pages. */
async function pagesPerSecond(t: Target, urls: string[], c: number): Promise<{ rate: number; failed: number }> {
  let next = 0;
  let done = 0;
  let failed = 0;
  const until = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (performance.now() < until) {
        const status = await fetchOnce(t, defined(urls[next++ % urls.length], 'a page url'));
        if (status === 200) done++;
        else failed++;
      }
    }),
  );
  return { rate: done / ((performance.now() - start) / 1000), failed };
}

/** Runs `hostile` callers fetching the bomb in a loop until `stop` resolves. */
function hostileLoad(t: Target, bombUrl: string, stop: Promise<void>): Promise<void> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  return Promise.all(
    Array.from({ length: HOSTILE }, async () => {
      while (!stopped) await fetchOnce(t, bombUrl);
    }),
  ).then(() => undefined);
}

async function searchP99(t: Target, qs: string[]): Promise<number> {
  const run = await load('search', { url: t.url, requests: querySequence('/v1/search', qs, t.key) }, SECONDS, 4);
  return run.p99;
}

async function main(): Promise<void> {
  const pages = loadDataset(dir!);
  const { server, origin } = await startFixture(pages);
  const env = {
    SCOUT_FETCH_ALLOW_CIDRS: `${FIXTURE_HOST}/32`,
    // The limits of issue 13 stay on; these only make room for the benchmark's own callers.
    SCOUT_FETCH_CONCURRENCY: '16',
    SCOUT_FETCH_QUEUE: '64',
    SCOUT_FETCH_PER_HOST: '16',
  };
  const pool = await benchScout(DOCS, env);
  const main = await benchScout(DOCS, env, { extract: extractDocument });
  const urls = pages.map((_, i) => `${origin}/p/${i}`);
  const targets = { pool: { url: pool.url, key: pool.key }, main: { url: main.url, key: main.key } };
  try {
    // Warm both (JIT, worker start-up) on every page once.
    for (const t of Object.values(targets)) for (const u of urls) await fetchOnce(t, u);

    console.log(
      `(a) POST /v1/fetch over ${pages.length} dataset pages, ${ROUNDS} alternating rounds of ${SECONDS} s (medians)`,
    );
    console.log('concurrency   main thread pages/s   worker pool pages/s   pool / main   failed');
    const ratios: Record<number, number> = {};
    for (const c of CONCURRENCY) {
      const mainRates: number[] = [];
      const poolRates: number[] = [];
      let failed = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const m = await pagesPerSecond(targets.main, urls, c);
        const p = await pagesPerSecond(targets.pool, urls, c);
        mainRates.push(m.rate);
        poolRates.push(p.rate);
        failed += m.failed + p.failed;
      }
      const ratio = median(poolRates) / median(mainRates);
      ratios[c] = ratio;
      console.log(
        `${String(c).padStart(11)}   ${median(mainRates).toFixed(1).padStart(19)}   ${median(poolRates).toFixed(1).padStart(19)}   ${ratio.toFixed(2).padStart(10)}x   ${failed}`,
      );
    }
    console.log(
      `goal: worker pool >= 1.6x the main thread at concurrency 4: ${defined(ratios[4], 'the ratio at concurrency 4').toFixed(2)}x\n`,
    );

    const qs = queries(2000);
    const bombUrl = `${origin}/bomb`;
    console.log(
      `(b) POST /v1/search p99 (4 connections, ${SECONDS} s), idle and while ${HOSTILE} callers fetch a ${(20).toFixed(0)} MB dense-markup brotli bomb; ${ROUNDS} alternating rounds`,
    );
    for (const [name, t] of Object.entries(targets)) {
      const idle: number[] = [];
      const busy: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        idle.push(await searchP99(t, qs));
        let release!: () => void;
        const stop = new Promise<void>((resolve) => (release = resolve));
        const hostile = hostileLoad(t, bombUrl, stop);
        await new Promise((resolve) => setTimeout(resolve, 500)); // let the fetches reach extraction
        busy.push(await searchP99(t, qs));
        release();
        await hostile;
      }
      const ratio = median(busy) / Math.max(1, median(idle));
      console.log(
        `${name === 'pool' ? 'worker pool' : 'main thread'}: idle p99 ${median(idle).toFixed(1)} ms, under hostile fetches p99 ${median(busy).toFixed(1)} ms (${ratio.toFixed(2)}x idle)`,
      );
    }
    console.log('goal: worker pool p99 under hostile fetches <= 2x idle p99 (p99s below 1 ms count as 1 ms)');
  } finally {
    await pool.scout.close();
    await main.scout.close();
    rmSync(pool.root, { recursive: true, force: true });
    rmSync(main.root, { recursive: true, force: true });
    server.close();
  }
}

await main();
