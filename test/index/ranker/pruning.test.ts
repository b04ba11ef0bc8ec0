import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/make-corpus.ts';
import { rankerDocs } from './ranker-docs.ts';
import { breathe } from '../../helpers/breathe.ts';
import { defined } from '../../helpers/defined.ts';
import { ExhaustiveRanker } from './exhaustive-ranker.ts';
import { MemoryRanker, type Ranked, type RankQuery } from '../../../src/index/ranker/memory-ranker.ts';

const docsOf = rankerDocs;

const DOMAINS = ['example.com', 'blog.example.com', 'example.org', 'example.de'];

function randomQuery(words: string[], rand: () => number): RankQuery {
  const n = 1 + Math.floor(rand() * 5);
  const start = Math.floor(rand() * (words.length - n));
  const picked =
    rand() < 0.5
      ? words.slice(start, start + n)
      : Array.from({ length: n }, () => defined(words[Math.floor(rand() * words.length)], 'a word'));
  const terms = [...new Set(picked)];
  const spans = terms.length > 1 && rand() < 0.7 ? [terms.slice(0, 2).join(' ')] : [];
  return {
    terms,
    spans,
    filters: {
      include: rand() < 0.15 ? [defined(DOMAINS[Math.floor(rand() * DOMAINS.length)], 'a domain')] : [],
      exclude: rand() < 0.15 ? [defined(DOMAINS[Math.floor(rand() * DOMAINS.length)], 'a domain')] : [],
      ...(rand() < 0.15 ? { start: '2019-01-01' } : {}),
      ...(rand() < 0.1 ? { country: 'US' } : {}),
    },
    wanted: 1 + Math.floor(rand() * 30),
    proximityWeight: rand() < 0.8 ? 0.25 : 0,
    rerankWindow: 100,
  };
}

const pairs = (r: Ranked[] | undefined): [number, number][] | undefined => r?.map((x) => [x.id, x.score]);

/** Same ids in order and scores to 1e-9; where two scores tie, either order (and either at the cut). */
function expectSame(a: Ranked[], b: Ranked[], label: string): void {
  expect(a.length, label).toBe(b.length);
  a.forEach((x, i) => {
    const y = defined(b[i], `${label} #${i} in the other ranking`);
    expect(Math.abs(x.score - y.score), `${label} #${i}`).toBeLessThanOrEqual(1e-9 * Math.max(1, y.score));
  });
  const tied = (s: number): boolean => a.filter((x) => Math.abs(x.score - s) <= 1e-9 * Math.max(1, s)).length > 1;
  a.forEach((x, i) => {
    if (x.id !== defined(b[i], `${label} #${i} in the other ranking`).id)
      expect(tied(x.score), `${label} #${i} differs without a tie`).toBe(true);
  });
}

// Builds and searches indexes of thousands of documents: 4-8 s on a quiet 2-core machine,
// 24 s seen with both cores busy; the limit is far above that (issue 24). Speed is bench/index.ts.
describe('MemoryRanker pruning (MaxScore, block-max) is exact', { timeout: 120_000 }, () => {
  const docs = docsOf(3000, 31);
  const words = docs
    .slice(0, 80)
    .flatMap((d) =>
      `${d.title} ${d.content.slice(0, 200)}`
        .toLowerCase()
        .replace(/[^a-z ]/g, '')
        .split(' '),
    )
    .filter(Boolean);

  it('gives the same top-k as scoring every posting, and as the exhaustive ranker, over 600 random searches after churn', async () => {
    const pruned = new MemoryRanker({ keepTexts: false });
    const reference = new ExhaustiveRanker();
    for (const d of docs) {
      pruned.add(d);
      reference.add(d);
    }
    // Churn: replacements and removals leave dead postings in sealed blocks.
    const rand = rng(3);
    const others = docsOf(500, 77);
    for (let i = 0; i < 500; i++) {
      if (i % 50 === 0) await breathe();
      const id = 1 + Math.floor(rand() * docs.length);
      const d = { ...defined(others[i], `other document ${i}`), id };
      pruned.add(d);
      reference.add(d);
      if (i % 3 === 0) {
        pruned.remove(id + 1);
        reference.remove(id + 1);
      }
    }
    let nonEmpty = 0;
    for (let i = 0; i < 600; i++) {
      if (i % 20 === 0) await breathe();
      const q = randomQuery(words, rand);
      const a = pruned.rank(q)!;
      const full = pruned.rank(q, false)!;
      expect(pairs(a), JSON.stringify(q)).toEqual(pairs(full));
      expectSame(a, reference.rank(q)!, JSON.stringify(q));
      if (a.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(500);
  });

  it('keeps remembered phrase counts exact across every kind of write (add, replace, remove, compaction)', async () => {
    const r = new MemoryRanker({ keepTexts: false });
    const reference = new ExhaustiveRanker();
    const pool = docsOf(1500, 41);
    const rand = rng(12);
    // Queries of adjacent words, so the proximity phrases (and their counts) are exercised.
    const phrasal = Array.from({ length: 30 }, (_, i): [string, string] => {
      const d = defined(pool[i * 7], `document ${i * 7}`)
        .content.toLowerCase()
        .replace(/[^a-z ]/g, '')
        .split(' ')
        .filter(Boolean);
      const at = Math.floor(rand() * (d.length - 3));
      return [defined(d[at], `word ${at}`), defined(d[at + 1], `word ${at + 1}`)];
    });
    for (const d of pool.slice(0, 600)) {
      r.add(d);
      reference.add(d);
    }
    let compared = 0;
    for (let step = 0; step < 700; step++) {
      if (step % 20 === 0) await breathe();
      // One write of a random kind, then the same phrasal queries again.
      const kind = rand();
      const d = defined(pool[Math.floor(rand() * pool.length)], 'a document');
      const id = 1 + Math.floor(rand() * 800);
      if (kind < 0.35) {
        r.add({ ...d, id });
        reference.add({ ...d, id });
      } else {
        r.remove(id);
        reference.remove(id);
      }
      for (const [a, b] of [
        defined(phrasal[step % phrasal.length], 'a phrase'),
        defined(phrasal[(step * 7) % phrasal.length], 'a phrase'),
      ]) {
        const q: RankQuery = {
          terms: [a, b],
          spans: [`${a} ${b}`],
          filters: { include: [], exclude: [] },
          wanted: 10,
          proximityWeight: 0.25,
          rerankWindow: 100,
        };
        expectSame(r.rank(q)!, reference.rank(q)!, `step ${step}: ${a} ${b}`);
        compared++;
      }
    }
    expect(compared).toBe(1400);
    expect(r.size).toBe(reference.size);
    // The removals passed the compaction threshold: counts were remembered across it too.
    expect(r.memory().compactions).toBeGreaterThan(0);
  });

  it('skips the blocks of a common word that cannot reach the top-k, unread', () => {
    const r = new MemoryRanker({ keepTexts: false });
    const base = { domain: 'a.test', publishedDate: null, day: null, country: null, title: 'Birds' };
    // Herons everywhere, but only the first few documents and the last are about nothing else:
    // once the first block has set the cut, no block between can reach it.
    for (let id = 1; id <= 6000; id++) {
      const content =
        id <= 5 || id === 6000 ? 'heron heron heron' : `heron with gulls terns and ducks on a grey shore ${id}`;
      r.add({ id, url: `https://a.test/${id}`, content, ...base });
    }
    const q: RankQuery = {
      terms: ['heron'],
      spans: [],
      filters: { include: [], exclude: [] },
      wanted: 5,
      proximityWeight: 0.25,
      rerankWindow: 100,
    };
    const full = r.rank(q, false)!;
    const all = r.lastDecoded;
    const top = r.rank(q)!;
    expect(pairs(top)).toEqual(pairs(full));
    expect(top.map((h) => h.id)).toEqual([1, 2, 3, 4, 5]);
    expect(all).toBe(6000);
    expect(r.lastDecoded).toBeLessThan(all / 4);
  });

  it('leaves a common word non-essential beside a rare one (MaxScore): the common one is only advanced', () => {
    const r = new MemoryRanker({ keepTexts: false });
    for (const d of docs) r.add(d);
    const q: RankQuery = {
      terms: ['time', 'pekatada'],
      spans: [],
      filters: { include: [], exclude: [] },
      wanted: 10,
      proximityWeight: 0,
      rerankWindow: 100,
    };
    r.rank({ ...q, terms: ['time'] }, false);
    const common = r.lastDecoded;
    const full = r.rank(q, false)!;
    const top = r.rank(q)!;
    expect(pairs(top)).toEqual(pairs(full));
    expect(r.lastDecoded).toBeLessThan(common);
  });

  it('answers alike with its sealed postings spilled to disk', () => {
    const roomy = new MemoryRanker({ keepTexts: false });
    const tight = new MemoryRanker({ keepTexts: false, budgetBytes: 1 });
    for (const d of docs.slice(0, 1500)) {
      roomy.add(d);
      tight.add(d);
    }
    expect(tight.memory().spilledBytes).toBeGreaterThan(0);
    expect(tight.memory().heapBytes).toBeLessThan(roomy.memory().heapBytes);
    const rand = rng(9);
    for (let i = 0; i < 200; i++) {
      const q = randomQuery(words, rand);
      expect(pairs(tight.rank(q)), JSON.stringify(q)).toEqual(pairs(roomy.rank(q)));
    }
    tight.close();
  });
});
