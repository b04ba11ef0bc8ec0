/**
 * Writes a deterministic synthetic JSONL corpus for the local index benchmarks:
 *   npx tsx bench/make-corpus.ts <out.jsonl> [--docs 10000] [--seed 42]
 * Words follow a Zipf distribution over 30,000 words (English function words at the head,
 * English topic words spread through the middle ranks, generated words elsewhere), so
 * doclist lengths look like a real collection's.
 * Documents are 2-5 KB, spread over domains with subdomains, dates (some missing) and
 * countries (some missing). Same arguments, same bytes.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { defined } from '../test/helpers/defined.ts';

/** The most frequent words of English text, in rank order: they head the Zipf curve. */
const FUNCTION_WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an ' +
  'they you were her she there been one all we their has would when if more can no what so out up about into ' +
  'them some could time only new other then its also two than over first after most these may any like use'
).split(' ');

/**
 * Topic words are spread over ranks 150..5000, log-uniformly, as content words are in real
 * text (so "search" is in a few percent of documents, not in most of them).
 */
const TOPIC_WORDS = (
  'search index query data system server network page result engine user web text document model language ' +
  'performance database storage memory cache request response error protocol security privacy agent content ' +
  'ranking score token window filter domain date country market research science health energy climate water ' +
  'city music film history sport travel food education policy economy finance software hardware design ' +
  'learning cloud mobile report study analysis review guide tutorial release version update feature'
).split(' ');

const SYLLABLES = 'ka ri to ne mu sa lo vi da pe ru chi mo ta fe li na so be gu ho ze wa ki pa ra'.split(' ');

const DOMAINS = [
  'example.com',
  'blog.example.com',
  'docs.example.com',
  'news.example.org',
  'example.org',
  'wiki.example.net',
  'research.example.edu',
  'example.edu',
  'shop.example.co.uk',
  'example.co.uk',
  'tech.example.io',
  'example.io',
  'forum.example.dev',
  'example.dev',
  'www.example.info',
  'example.info',
  'journal.example.ac.uk',
  'portal.example.de',
  'example.de',
  'nachrichten.example.de',
  'example.fr',
  'actualites.example.fr',
  'example.jp',
  'example.com.br',
];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'IN', 'CA', 'AU', 'ES'];

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(size: number, rand: () => number): string[] {
  const words = [...FUNCTION_WORDS];
  const seen = new Set([...FUNCTION_WORDS, ...TOPIC_WORDS]);
  while (words.length < size - TOPIC_WORDS.length) {
    const n = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  TOPIC_WORDS.forEach((w, i) => {
    const rank = Math.round(150 * (5000 / 150) ** (i / (TOPIC_WORDS.length - 1)));
    words.splice(rank, 0, w);
  });
  return words;
}

/** Cumulative Zipf(s=1) weights, sampled by binary search. */
function zipfSampler(n: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + 1);
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (defined(cdf[mid], 'a cumulative weight') < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface CorpusOptions {
  docs: number;
  seed: number;
}

/** Yields one JSONL line (without newline) per document. */
export function* corpusLines(opts: CorpusOptions): Generator<string> {
  const rand = rng(opts.seed);
  const vocab = vocabulary(30_000, rand);
  const pick = zipfSampler(vocab.length, rand);
  const words = (n: number): string[] => Array.from({ length: n }, () => defined(vocab[pick()], 'a vocabulary word'));
  for (let i = 0; i < opts.docs; i++) {
    const host = DOMAINS[i % DOMAINS.length];
    const titleWords = words(3 + Math.floor(rand() * 7));
    const title = titleWords.map((w, j) => (j === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
    const sentences: string[] = [];
    const target = 2000 + Math.floor(rand() * 3000);
    let length = 0;
    while (length < target) {
      const s = words(6 + Math.floor(rand() * 16)).join(' ');
      const sentence = `${s.charAt(0).toUpperCase() + s.slice(1)}.`;
      sentences.push(sentence);
      length += sentence.length + 1;
    }
    const doc: Record<string, string> = {
      url: `https://${host}/${titleWords.slice(0, 3).join('-')}-${i}`,
      title,
      content: sentences.join(' '),
    };
    if (rand() < 0.85) {
      const day = Math.floor(rand() * 3650);
      doc.published_date = new Date(Date.UTC(2016, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    }
    if (rand() < 0.7) doc.country = defined(COUNTRIES[Math.floor(rand() * COUNTRIES.length)], 'a country');
    if (rand() < 0.9) doc.language = 'en';
    yield JSON.stringify(doc);
  }
}

export async function writeCorpus(file: string, opts: CorpusOptions): Promise<void> {
  const out = createWriteStream(file);
  for (const line of corpusLines(opts)) {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function parseArgs(argv: string[]): { file: string } & CorpusOptions {
  const file = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const flag = (name: string, def: number): number => {
    const i = argv.indexOf(`--${name}`);
    const v = i >= 0 ? Number(argv[i + 1]) : def;
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a non-negative integer`);
    return v;
  };
  if (!file) throw new Error('usage: tsx bench/make-corpus.ts <out.jsonl> [--docs 10000] [--seed 42]');
  return { file, docs: flag('docs', 10_000), seed: flag('seed', 42) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = parseArgs(process.argv.slice(2));
  await writeCorpus(args.file, args);
  process.stdout.write(`wrote ${args.docs} documents to ${args.file}\n`);
}
