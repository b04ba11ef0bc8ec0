/**
 * The crawl half of npm run bench:extract-batch: the pages per second one POST /v1/crawl reads
 * from one host against the per-host pacing limit itself (goal: at least 90 % of it).
 *
 * The site: PAGES pages on one loopback host (a tree, five links a page, so max_depth 2 holds
 * them all), each 15-80 KB of HTML served after the same latency as the batch's pages, and a
 * robots.txt allowing everything. Pacing (src/site/host-pacer.ts) starts a host's next request
 * SCOUT_MAP_DELAY_MS (D) after the previous one ENDED, so one host cannot give more than one
 * page per D + S, S being a page's own service time (served latency, transfer, extraction).
 * The baseline is that limit, 1000 / (D + S) pages/s, with S measured in the same round as the
 * median time of one POST /v1/fetch of the same pages, sent one after another (which includes
 * the client's round trip to Scout, a millisecond or two on loopback: it lowers the limit by
 * that little). The crawl's rate is pages returned / the wall time of its POST /v1/crawl call,
 * measured by the client: it includes the crawl's robots.txt request and the pause after it
 * (one page's worth of the PAGES), the link reading, the windows and the answer. Rounds
 * alternate which goes first; the figures are medians.
 */
import { createServer, type Server } from 'node:http';
import { median } from './load-kit.ts';

export const PAGES = 30;
const GOAL = 0.9;
/** Links per page: page i links to pages 5i+1 .. 5i+5 (those below PAGES). */
const FANOUT = 5;

export interface CrawlTarget {
  url: string;
  key: string;
}

async function post(t: CrawlTarget, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** The site's pages: `html(n, kb)` with its navigation replaced by the tree's links. */
export function crawlSite(html: (n: number, kb: number) => string): Map<string, Buffer> {
  const pages = new Map<string, Buffer>();
  pages.set('/robots.txt', Buffer.from('User-agent: *\nAllow: /\n'));
  for (let i = 0; i < PAGES; i++) {
    const kids = Array.from({ length: FANOUT }, (_, k) => FANOUT * i + k + 1).filter((j) => j < PAGES);
    const nav = `<nav><ul>${kids.map((j) => `<li><a href="/c/${j}">Page ${j}</a></li>`).join('')}</ul></nav>`;
    const kb = 15 + Math.round((65 * ((i * 7) % PAGES)) / (PAGES - 1));
    pages.set(`/c/${i}`, Buffer.from(html(i, kb).replace(/<nav>[\s\S]*?<\/nav>/, nav)));
  }
  return pages;
}

/** Serves `pages` on `host` after `latencyMs`, robots.txt as text. */
export function serveSite(host: string, pages: Map<string, Buffer>, latencyMs: number): Promise<Server> {
  const server = createServer((req, res) => {
    const body = pages.get(req.url ?? '');
    setTimeout(() => {
      if (body === undefined) {
        res.writeHead(404).end();
        return;
      }
      const type = req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8';
      res.writeHead(200, { 'content-type': type, 'content-length': body.length });
      res.end(body);
    }, latencyMs);
  });
  return new Promise((resolve) => server.listen(0, host, () => resolve(server)));
}

/** One crawl of the whole site: ms and pages returned. */
async function crawlOnce(t: CrawlTarget, origin: string): Promise<{ ms: number; pages: number }> {
  const start = performance.now();
  const { status, json } = await post(t, '/v1/crawl', {
    url: `${origin}/c/0`,
    max_depth: 2,
    limit: PAGES,
    timeout_ms: 120_000,
  });
  const ms = performance.now() - start;
  if (status !== 200) throw new Error(`POST /v1/crawl answered ${status}: ${JSON.stringify(json)}`);
  return { ms, pages: (json as { pages: unknown[] }).pages.length };
}

/** The median time of one POST /v1/fetch of the site's pages, sent one after another. */
async function serviceMs(t: CrawlTarget, origin: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < PAGES; i++) {
    const start = performance.now();
    const { status } = await post(t, '/v1/fetch', { url: `${origin}/c/${i}` });
    if (status !== 200) throw new Error(`POST /v1/fetch of page ${i} answered ${status}`);
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Measures and prints; returns the ratio of the crawl's rate to the limit. */
export async function crawlPace(
  t: CrawlTarget,
  origin: string,
  o: { rounds: number; delayMs: number; latencyMs: number },
): Promise<number> {
  await crawlOnce(t, origin); // warm-up
  const rates: number[] = [];
  const limits: number[] = [];
  const services: number[] = [];
  const ratios: number[] = [];
  let short = 0;
  for (let r = 0; r < o.rounds; r++) {
    const first = r % 2 === 0;
    const c1 = first ? await crawlOnce(t, origin) : undefined;
    const s = await serviceMs(t, origin);
    const c = c1 ?? (await crawlOnce(t, origin));
    const rate = (c.pages * 1000) / c.ms;
    const limit = 1000 / (o.delayMs + s);
    if (c.pages !== PAGES) short += 1;
    rates.push(rate);
    limits.push(limit);
    services.push(s);
    ratios.push(rate / limit);
  }
  const ratio = median(ratios);
  console.log(
    `\ncrawl: ${PAGES} pages of one host (15-80 KB each, ${o.latencyMs} ms served latency), SCOUT_MAP_DELAY_MS ${o.delayMs} ms (D), ${o.rounds} alternating rounds, medians`,
  );
  console.log(
    `page service time S (one /v1/fetch, sequential) ${median(services).toFixed(0)} ms; per-host limit 1000 / (D + S) = ${median(limits).toFixed(2)} pages/s`,
  );
  console.log(
    `one /v1/crawl of the ${PAGES} pages: ${median(rates).toFixed(2)} pages/s (robots.txt and its pause included)${short > 0 ? `; ${short} rounds returned fewer than ${PAGES} pages` : ''}`,
  );
  console.log(
    `goal: crawl pages/s >= ${GOAL * 100}% of the per-host limit: ${(ratio * 100).toFixed(1)}% ${ratio >= GOAL ? 'met' : 'NOT met'}`,
  );
  return ratio;
}
