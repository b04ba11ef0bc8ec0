/**
 * A generated collection for bench/index.ts with a realistic vocabulary: the words of the
 * extraction development pages' main text (read from the folders given, never copied into
 * the repo), sampled as they occur there, so word frequencies follow the pages' own Zipf
 * curve, and strung together by a first-order walk over that text (each next word is one
 * that followed the current word somewhere in the pages, or, one time in five, a fresh
 * draw), so adjacent words form real phrases for the proximity bonus. Titles are shorter
 * walks; domains come from the pages' own hosts (with subdomains), dates and countries as
 * bench/make-corpus.ts makes them. Same pages and seed, same collection.
 */
import { loadDataset } from './extract-dataset.ts';
import { rng } from './make-corpus.ts';
import { defined } from '../test/helpers/defined.ts';
import type { IndexDocument } from '../src/index/index-document.ts';
import { STOP_WORDS } from '../src/content/stop-words.ts';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'IN', 'CA', 'AU', 'ES'];

export interface Vocabulary {
  words: string[];
  /** The pages' text as word ids, in order; -1 between pages. */
  stream: Int32Array;
  /** Per word id, its places in the stream (CSR: places[at[w] .. at[w + 1])). */
  at: Int32Array;
  places: Int32Array;
  hosts: string[];
  /** Characters of page text read. */
  chars: number;
}

/** Reads the pages' main text (their ground truth) and indexes its words. */
export function loadVocabulary(dirs: readonly string[]): Vocabulary {
  const ids = new Map<string, number>();
  const words: string[] = [];
  const stream: number[] = [];
  const hosts = new Set<string>();
  let chars = 0;
  for (const dir of dirs) {
    for (const page of loadDataset(dir)) {
      chars += page.truth.length;
      try {
        hosts.add(new URL(page.url).hostname.toLowerCase());
      } catch {
        // A page without a usable url still gives its words.
      }
      for (const m of page.truth.matchAll(WORD)) {
        const w = m[0];
        let id = ids.get(w);
        if (id === undefined) {
          id = words.push(w) - 1;
          ids.set(w, id);
        }
        stream.push(id);
      }
      stream.push(-1);
    }
  }
  if (words.length === 0) throw new Error(`no page text found in ${dirs.join(', ')}`);
  const s = Int32Array.from(stream);
  const at = new Int32Array(words.length + 1);
  for (const w of s) if (w >= 0) at[w + 1] = defined(at[w + 1], 'a word count') + 1;
  for (let i = 0; i < words.length; i++)
    at[i + 1] = defined(at[i + 1], 'a word count') + defined(at[i], 'a word start');
  const fill = at.slice(0, words.length);
  const places = new Int32Array(defined(at[words.length], 'the number of places'));
  s.forEach((w, i) => {
    if (w < 0) return;
    const place = defined(fill[w], 'a free place');
    fill[w] = place + 1;
    places[place] = i;
  });
  return { words, stream: s, at, places, hosts: [...hosts].sort(), chars };
}

/** Walks the pages' text: a word, then one that followed it there (or a fresh draw). */
export class TextWalk {
  readonly #v: Vocabulary;
  readonly #rand: () => number;
  #place: number;

  constructor(v: Vocabulary, seed: number) {
    this.#v = v;
    this.#rand = rng(seed);
    this.#place = this.#fresh();
  }

  /** A place in the stream holding a word, drawn as often as its word occurs (Zipf as in the pages). */
  #fresh(): number {
    const { stream } = this.#v;
    for (;;) {
      const p = Math.floor(this.#rand() * stream.length);
      if (defined(stream[p], 'a stream entry') >= 0) return p;
    }
  }

  next(): string {
    const v = this.#v;
    let p = this.#place + 1;
    if (this.#rand() < 0.2 || p >= v.stream.length || defined(v.stream[p], 'a stream entry') < 0) {
      p = this.#fresh();
    } else {
      // Jump to another occurrence of this word, so the walk does not copy one page.
      const w = defined(v.stream[p], 'a stream entry');
      const from = defined(v.at[w], 'a word start');
      const n = defined(v.at[w + 1], 'a word end') - from;
      p = defined(v.places[from + Math.floor(this.#rand() * n)], 'a place');
    }
    this.#place = p;
    return defined(v.words[defined(v.stream[p], 'a stream entry')], 'a word');
  }

  /** A content word (not a query stop word). */
  nextContentWord(): string {
    for (;;) {
      const w = this.next();
      if (!STOP_WORDS.has(w.toLowerCase())) return w;
    }
  }

  random(): number {
    return this.#rand();
  }
}

/** A generated document: one JSONL line of `scout index import`. */
export type GeneratedDoc = IndexDocument;

/** `n` documents of about 3 KB (2-4 KB of content). */
export function* generateDocs(v: Vocabulary, n: number, seed: number): Generator<GeneratedDoc> {
  const walk = new TextWalk(v, seed);
  const hosts = v.hosts.length > 0 ? v.hosts : ['example.com'];
  for (let i = 0; i < n; i++) {
    const host = defined(hosts[i % hosts.length], 'a host');
    const sub = walk.random() < 0.3 ? `blog.${host.replace(/^www\./, '')}` : host;
    const titleWords: string[] = [];
    for (let k = 4 + Math.floor(walk.random() * 7); k > 0; k--) titleWords.push(walk.next());
    const target = 2000 + Math.floor(walk.random() * 2000);
    const parts: string[] = [];
    let length = 0;
    let sentence = 0;
    while (length < target) {
      const w = walk.next();
      parts.push(w);
      length += w.length + 1;
      if (++sentence > 8 && walk.random() < 0.08) {
        parts.push('.');
        sentence = 0;
      }
    }
    const doc: GeneratedDoc = {
      url: `https://${sub}/${titleWords
        .slice(0, 3)
        .join('-')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}-]/gu, '')}-${i}`,
      title: titleWords.join(' '),
      content: parts.join(' ').replace(/ \./g, '.'),
    };
    if (walk.random() < 0.85) {
      const day = Math.floor(walk.random() * 3650);
      doc.published_date = new Date(Date.UTC(2016, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    }
    if (walk.random() < 0.7)
      doc.country = defined(COUNTRIES[Math.floor(walk.random() * COUNTRIES.length)], 'a country');
    if (walk.random() < 0.9) doc.language = 'en';
    yield doc;
  }
}

/** Queries of `words` words as an agent writes them: a run of the pages' text or words drawn apart. */
export function generateQueries(v: Vocabulary, words: number, n: number, seed: number): string[] {
  const walk = new TextWalk(v, seed);
  return Array.from({ length: n }, () => {
    const out: string[] = [];
    const run = walk.random() < 0.5;
    while (out.length < words) out.push(run && out.length > 0 ? walk.next() : walk.nextContentWord());
    return out.join(' ');
  });
}
