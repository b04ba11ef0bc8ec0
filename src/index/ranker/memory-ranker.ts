import { TITLE_WEIGHT } from '../search-statements.ts';
import type { Filters } from '../search-filters.ts';
import { contribution, idf, K1_PLUS_1, lengthNorm } from './bm25.ts';
import { TopK } from './top-k.ts';
import { MAX_MATCHES, type Match } from '../snippet.ts';
import { tokenize, wordEnd } from './tokenize.ts';

/** A document as the ranker takes it (a row of documents ⋈ document_texts). */
export interface RankerDocument {
  id: number;
  url: string;
  title: string;
  content: string;
  domain: string;
  publishedDate: string | null;
  /** UTC day of published_date (YYYY-MM-DD), or null. */
  day: string | null;
  country: string | null;
}

export interface RankQuery {
  /** Distinct query words, stop words dropped (fts-query.ts). */
  terms: readonly string[];
  /** Adjacent-word spans for the proximity bonus ("bank of america"). */
  spans: readonly string[];
  filters: Filters;
  /** How many the caller shows (offset + limit). */
  wanted: number;
  proximityWeight: number;
  rerankWindow: number;
}

export interface Ranked {
  id: number;
  score: number;
  /** The ranker's slot of the document (internal; saves a look-up per candidate). */
  slot?: number;
}

/** What a result shows of a ranked document, with the query words' places in its content. */
export interface RankerHit {
  score: number;
  url: string;
  title: string;
  domain: string;
  publishedDate: string | null;
  content: string;
  /** Occurrences of the query's words in the content, in text order (at most MAX_MATCHES). */
  matches: Match[];
}

/** Postings of one term: slots in increasing order, with the column-weighted frequency. */
class Postings {
  slots = new Int32Array(4);
  freqs = new Uint32Array(4);
  length = 0;
  /** Live documents holding the term. */
  df = 0;
  /** Each posting's bm25() addition (0 for a dead slot), valid for ranker generation `impactsAt`. */
  impacts = new Float64Array(0);
  impactsAt = -1;

  push(slot: number, freq: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
      const freqs = new Uint32Array(this.length * 2);
      freqs.set(this.freqs);
      this.freqs = freqs;
    }
    this.slots[this.length] = slot;
    this.freqs[this.length++] = freq;
  }
}

/*
 * A document's vector, one Uint32Array: [n, titleTokens, term ids (ascending) × n,
 * position starts × (n + 1), positions…]. Positions of the content are shifted by
 * titleTokens + 1, so no phrase runs from the title into the content.
 */
/** Longest phrase (tokens) the proximity bonus matches; a span is at most 2 words + 2 stop words. */
const MAX_PHRASE_TOKENS = 64;

/** Phrase document frequencies remembered between writes. */
const PHRASES_REMEMBERED = 20_000;

const N_TERMS = 0;
const TITLE_LEN = 1;
const HEAD = 2;
const EMPTY = new Uint32Array([0, 0, 0]);

function termsOf(v: Uint32Array): Uint32Array {
  return v.subarray(HEAD, HEAD + v[N_TERMS]);
}

/** Index j of term `t` among the vector's terms (binary search), or -1. */
function termIndex(v: Uint32Array, t: number): number {
  let lo = HEAD;
  let hi = HEAD + v[N_TERMS] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = v[mid];
    if (x === t) return mid - HEAD;
    if (x < t) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Whether x is in the ascending run v[lo, hi). */
function containsIn(v: Uint32Array, lo: number, hi: number, x: number): boolean {
  hi -= 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (v[mid] === x) return true;
    if (v[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * The local index's ranking held in memory: an inverted index of the same tokens FTS5 keeps
 * (ranker/tokenize.ts), scored with FTS5's bm25() (ranker/bm25.ts), so answers equal the
 * SQL path's (test/index/ranker/ranker-equivalence.test.ts) while a search costs one pass
 * over the query terms' postings and a top-k heap, instead of bm25() reading every
 * matching row's sizes from the FTS5 tables (~10-30x slower on 10k documents, see
 * bench/local-search.ts).
 *
 * Filters are tested on the candidates in memory; the proximity bonus (adjacent query
 * words as FTS5 phrases) uses the kept positions. Deleting marks a slot dead; dead
 * postings are dropped when they outnumber the live ones.
 */
export class MemoryRanker {
  readonly #termIds = new Map<string, number>();
  readonly #postings: Postings[] = [];
  readonly #slotOf = new Map<number, number>();
  #ids: number[] = [];
  #lens: number[] = [];
  #alive: boolean[] = [];
  #vectors: Uint32Array[] = [];
  #docs: (RankerDocument | undefined)[] = [];
  /** UTF-16 start of each content token, per slot (snippets are cut around them). */
  #offsets: Uint32Array[] = [];
  #domain: string[] = [];
  #day: (string | null)[] = [];
  #country: (string | null)[] = [];
  #norms = new Float64Array(0);
  #normsFor = -1;
  #rows = 0;
  #tokens = 0;
  #livePostings = 0;
  #deadPostings = 0;
  /** Phrase document frequencies, valid until the next change. */
  readonly #phraseHits = new Map<string, number>();
  #acc = new Float64Array(0);
  /** The heap of the last search, reused while the page size stays the same. */
  #top?: TopK;
  /** Scratch of add(): per term id, the call that last saw it and its count / next place. */
  #mark = new Int32Array(0);
  #local = new Int32Array(0);
  #stamp = 0;
  /** Scratch of #phraseFreq: each phrase word's run of positions. */
  readonly #phraseFrom = new Uint32Array(MAX_PHRASE_TOKENS);
  readonly #phraseTo = new Uint32Array(MAX_PHRASE_TOKENS);
  /** Bumped by every add and remove: cached impacts of older generations are stale. */
  #generation = 0;
  #touched = new Int32Array(0);

  /** Live documents. */
  get size(): number {
    return this.#rows;
  }

  has(id: number): boolean {
    return this.#slotOf.has(id);
  }

  /** Adds a document, replacing the one of the same id. */
  add(doc: RankerDocument): void {
    this.remove(doc.id);
    const title = tokenize(doc.title);
    const offsets: number[] = [];
    const content = tokenize(doc.content, offsets);
    const total = title.length + content.length;
    // Term id of every token, titles first; then the distinct ids with their counts, using
    // per-term scratch slots stamped with this call (no Map or object per term: a build
    // adds millions of tokens).
    const tokIds = new Int32Array(total);
    for (let i = 0; i < total; i++) tokIds[i] = this.#termId(i < title.length ? title[i] : content[i - title.length]);
    const stamp = ++this.#stamp;
    this.#ensureTermScratch();
    const mark = this.#mark;
    const local = this.#local;
    const distinct: number[] = [];
    for (let i = 0; i < total; i++) {
      const t = tokIds[i];
      if (mark[t] !== stamp) {
        mark[t] = stamp;
        local[t] = 0;
        distinct.push(t);
      }
      local[t]++;
    }
    const ids = Int32Array.from(distinct).sort();
    const n = ids.length;
    const v = new Uint32Array(HEAD + n + n + 1 + total);
    v[N_TERMS] = n;
    v[TITLE_LEN] = title.length;
    const starts = HEAD + n;
    let at = starts + n + 1;
    // Each term's run of positions starts where the previous ends; `local` becomes the
    // next free place of the term's run.
    for (let j = 0; j < n; j++) {
      const t = ids[j];
      v[HEAD + j] = t;
      v[starts + j] = at;
      const count = local[t];
      local[t] = at;
      at += count;
    }
    v[starts + n] = at;
    const shift = title.length + 1;
    for (let i = 0; i < total; i++) {
      const t = tokIds[i];
      v[local[t]++] = i < title.length ? i : shift + i - title.length;
    }
    const slot = this.#ids.length;
    for (let j = 0; j < n; j++) {
      const t = ids[j];
      const from = v[starts + j];
      const to = v[starts + j + 1];
      let inTitle = 0;
      for (let k = from; k < to && v[k] < title.length; k++) inTitle++;
      const p = this.#postings[t];
      p.push(slot, TITLE_WEIGHT * inTitle + (to - from - inTitle));
      p.df++;
    }

    this.#slotOf.set(doc.id, slot);
    this.#ids.push(doc.id);
    this.#lens.push(total);
    this.#alive.push(true);
    this.#vectors.push(v);
    this.#docs.push({ ...doc });
    this.#offsets.push(Uint32Array.from(offsets));
    this.#domain.push(doc.domain);
    this.#day.push(doc.day);
    this.#country.push(doc.country);
    this.#rows++;
    this.#tokens += total;
    this.#livePostings += n;
    this.#changed();
  }

  #termId(tok: string): number {
    let id = this.#termIds.get(tok);
    if (id === undefined) {
      id = this.#postings.length;
      this.#termIds.set(tok, id);
      this.#postings.push(new Postings());
    }
    return id;
  }

  #ensureTermScratch(): void {
    if (this.#mark.length < this.#postings.length) {
      const size = Math.max(1024, this.#postings.length * 2);
      const mark = new Int32Array(size);
      mark.set(this.#mark);
      this.#mark = mark;
      this.#local = new Int32Array(size);
    }
  }

  /** Removes a document; unknown ids are ignored. */
  remove(id: number): void {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return;
    this.#slotOf.delete(id);
    const v = this.#vectors[slot];
    for (const t of termsOf(v)) this.#postings[t].df--;
    this.#alive[slot] = false;
    this.#vectors[slot] = EMPTY;
    this.#docs[slot] = undefined;
    this.#offsets[slot] = EMPTY;
    this.#rows--;
    this.#tokens -= this.#lens[slot];
    this.#livePostings -= v[N_TERMS];
    this.#deadPostings += v[N_TERMS];
    this.#changed();
    if (this.#deadPostings > 4096 && this.#deadPostings > this.#livePostings) this.#compact();
  }

  /** Document frequency of a query word (0 when unknown or not a single token). */
  documentFrequency(word: string): number {
    const toks = tokenize(word);
    if (toks.length !== 1) return 0;
    const id = this.#termIds.get(toks[0]);
    return id === undefined ? 0 : this.#postings[id].df;
  }

  /**
   * Ranked ids, best first, as LocalIndex's SQL path ranks them; undefined when this query
   * needs what the ranker does not do (a query word FTS5 splits into several tokens).
   */
  rank(q: RankQuery): Ranked[] | undefined {
    const words: { word: string; term: number }[] = [];
    for (const word of q.terms) {
      const toks = tokenize(word);
      if (toks.length !== 1) return undefined;
      words.push({ word, term: this.#termIds.get(toks[0]) ?? -1 });
    }
    const spans = q.proximityWeight > 0 ? q.spans.map((s) => tokenize(s)) : [];
    if (spans.some((s) => s.length === 0 || s.length > MAX_PHRASE_TOKENS)) return undefined;

    const df = (t: number): number => (t < 0 ? 0 : this.#postings[t].df);
    // DocFrequency.informative: drop words found nowhere or in half the rows or more.
    let informative = words;
    if (words.length >= 2) {
      const kept = words.filter((w) => df(w.term) > 0 && 2 * df(w.term) < this.#rows);
      if (kept.length > 0) informative = kept;
    }
    const rerank = spans.length > 0;
    const limit = rerank ? Math.max(q.wanted, q.rerankWindow) : q.wanted;
    const accept = this.#filter(q.filters);
    const ranked = this.#score(informative.map((w) => w.term), limit, accept);
    if (ranked.length < q.wanted && informative.length < words.length) {
      const seen = new Set(ranked.map((r) => r.id));
      for (const r of this.#score(words.map((w) => w.term), limit, accept)) if (!seen.has(r.id)) ranked.push(r);
    }
    return rerank && ranked.length > 1 ? this.#proximity(ranked, spans, q.proximityWeight, q.wanted) : ranked;
  }

  /**
   * The shown fields of ranked documents, with where the query words occur in each
   * content (from the kept positions: the index's own stems, no text scan).
   */
  page(ranked: readonly Ranked[], words: readonly string[]): RankerHit[] {
    const terms: number[] = [];
    for (const w of words) {
      const toks = tokenize(w);
      const id = toks.length === 1 ? this.#termIds.get(toks[0]) : undefined;
      if (id !== undefined && !terms.includes(id)) terms.push(id);
    }
    const hits: RankerHit[] = [];
    for (const r of ranked) {
      const slot = r.slot ?? this.#slotOf.get(r.id);
      const doc = slot === undefined ? undefined : this.#docs[slot];
      if (slot === undefined || doc === undefined) continue;
      hits.push({
        score: r.score,
        url: doc.url,
        title: doc.title,
        domain: doc.domain,
        publishedDate: doc.publishedDate,
        content: doc.content,
        matches: this.#matches(slot, terms),
      });
    }
    return hits;
  }

  /** The query terms' places in the content, in text order: a merge of their position runs. */
  #matches(slot: number, terms: readonly number[]): Match[] {
    const v = this.#vectors[slot];
    const offsets = this.#offsets[slot];
    const text = this.#docs[slot]!.content;
    const shift = v[TITLE_LEN] + 1;
    const starts = HEAD + v[N_TERMS];
    // Cursor and end of each term's run (content positions only: they come after the title's).
    const at: number[] = [];
    const end: number[] = [];
    for (const t of terms) {
      const j = termIndex(v, t);
      let from = j < 0 ? 0 : v[starts + j];
      const to = j < 0 ? 0 : v[starts + j + 1];
      while (from < to && v[from] < shift) from++;
      at.push(from);
      end.push(to);
    }
    const out: Match[] = [];
    while (out.length < MAX_MATCHES) {
      let best = -1;
      for (let i = 0; i < terms.length; i++) if (at[i] < end[i] && (best < 0 || v[at[i]] < v[at[best]])) best = i;
      if (best < 0) break;
      const from = offsets[v[at[best]++] - shift];
      out.push({ at: from, end: wordEnd(text, from), term: best });
    }
    return out;
  }

  /** Top `limit` accepted documents by the summed bm25() of the terms (each once per word). */
  #score(terms: number[], limit: number, accept: ((slot: number) => boolean) | undefined): Ranked[] {
    this.#ensureScratch();
    const acc = this.#acc;
    const touched = this.#touched;
    let nTouched = 0;
    for (const t of terms) {
      if (t < 0) continue;
      const p = this.#postings[t];
      if (p.df === 0) continue;
      const impacts = this.#impacts(p);
      const { slots, length } = p;
      for (let i = 0; i < length; i++) {
        const c = impacts[i];
        if (c === 0) continue; // a dead slot
        const s = slots[i];
        if (acc[s] === 0) touched[nTouched++] = s;
        acc[s] += c;
      }
    }
    const top = this.#top?.k === limit ? this.#top : (this.#top = new TopK(limit));
    top.clear();
    const ids = this.#ids;
    for (let i = 0; i < nTouched; i++) {
      const s = touched[i];
      const score = acc[s];
      acc[s] = 0;
      if (top.admits(score) && (accept === undefined || accept(s))) top.offer(score, ids[s], s);
    }
    return top.sorted();
  }

  /**
   * The term's postings as bm25() additions, computed once per ranker generation (any
   * write is a new one): a search then adds numbers instead of evaluating the formula for
   * every posting. Same operations as contribution(), so the same doubles.
   */
  #impacts(p: Postings): Float64Array {
    if (p.impactsAt === this.#generation) return p.impacts;
    const norms = this.#lengthNorms();
    const w = idf(this.#rows, p.df);
    if (p.impacts.length < p.length) p.impacts = new Float64Array(p.slots.length);
    const { slots, freqs, impacts, length } = p;
    const alive = this.#alive;
    for (let i = 0; i < length; i++) {
      const s = slots[i];
      impacts[i] = alive[s] ? contribution(w, freqs[i], norms[s]) : 0;
    }
    p.impactsAt = this.#generation;
    return impacts;
  }

  /**
   * Adds proximityWeight × bm25() of the spans as phrases, then re-sorts (stable). Only the
   * first `wanted` are shown, so a candidate whose score plus the largest bonus any document
   * could get stays below the `wanted`-th score is left where it is, unscored: bonuses only
   * raise scores, so it could not reach the page.
   */
  #proximity(ranked: Ranked[], spans: string[][], weight: number, wanted: number): Ranked[] {
    const phrases = spans.map((toks) => toks.map((t) => this.#termIds.get(t) ?? -1)).filter((p) => !p.some((t) => t < 0));
    if (phrases.length === 0) return ranked;
    let end = ranked.length;
    if (ranked.length > wanted) {
      // Each phrase adds less than idf × (k1 + 1), and no IDF passes that of a phrase in one row.
      const maxBonus = weight * phrases.length * K1_PLUS_1 * idf(this.#rows, 1) * (1 + 1e-9);
      const floor = ranked[wanted - 1].score;
      end = wanted;
      while (end < ranked.length && ranked[end].score + maxBonus >= floor) end++;
    }
    const norms = this.#lengthNorms();
    let any = false;
    const head: Ranked[] = ranked.slice(0, end).map((r) => {
      const slot = r.slot ?? this.#slotOf.get(r.id)!;
      let bonus = 0;
      for (const phrase of phrases) {
        const f = this.#phraseFreq(slot, phrase);
        if (f > 0) bonus += contribution(idf(this.#rows, this.#phraseHitsOf(phrase)), f, norms[slot]);
      }
      if (bonus > 0) any = true;
      return { id: r.id, score: r.score + weight * bonus, slot };
    });
    if (!any) return ranked;
    head.sort((a, b) => b.score - a.score);
    return end === ranked.length ? head : head.concat(ranked.slice(end));
  }

  /**
   * Column-weighted count of the phrase in one document (0 when absent); with `first`,
   * 1 as soon as one instance is found (for counting the documents that hold it).
   */
  #phraseFreq(slot: number, phrase: number[], first = false): number {
    // Allocation-free: this runs for every candidate and phrase of a search.
    const v = this.#vectors[slot];
    const n = v[N_TERMS];
    const starts = HEAD + n;
    const j0 = termIndex(v, phrase[0]);
    if (j0 < 0) return 0;
    const k = phrase.length;
    const from = this.#phraseFrom;
    const to = this.#phraseTo;
    for (let i = 1; i < k; i++) {
      const j = termIndex(v, phrase[i]);
      if (j < 0) return 0;
      from[i] = v[starts + j];
      to[i] = v[starts + j + 1];
    }
    const titleLen = v[TITLE_LEN];
    let f = 0;
    for (let at = v[starts + j0], end = v[starts + j0 + 1]; at < end; at++) {
      const start = v[at];
      let ok = true;
      for (let i = 1; i < k && ok; i++) ok = containsIn(v, from[i], to[i], start + i);
      if (!ok) continue;
      if (first) return 1;
      f += start < titleLen ? TITLE_WEIGHT : 1;
    }
    return f;
  }

  /** Live documents holding the phrase (FTS5 counts them for the phrase's IDF). */
  #phraseHitsOf(phrase: number[]): number {
    const key = phrase.join(' ');
    let hits = this.#phraseHits.get(key);
    if (hits !== undefined) return hits;
    hits = 0;
    if (!phrase.some((t) => t < 0)) {
      // Walk the rarest term's postings.
      const rarest = phrase.reduce((a, t) => (this.#postings[t].df < this.#postings[a].df ? t : a), phrase[0]);
      const p = this.#postings[rarest];
      for (let i = 0; i < p.length; i++) {
        const s = p.slots[i];
        if (this.#alive[s] && this.#phraseFreq(s, phrase, true) > 0) hits++;
      }
    }
    // Bounded: distinct phrases of distinct queries would otherwise pile up until a write.
    if (this.#phraseHits.size >= PHRASES_REMEMBERED) this.#phraseHits.clear();
    this.#phraseHits.set(key, hits);
    return hits;
  }

  /** The filters as one test of a slot; undefined when there is none. */
  #filter(f: Filters): ((slot: number) => boolean) | undefined {
    const hasDomains = f.include.length > 0 || f.exclude.length > 0;
    const hasDates = f.start !== undefined || f.end !== undefined;
    const country = f.country;
    if (!hasDomains && !hasDates && country === undefined) return undefined;
    const under = (domain: string, list: readonly string[]): boolean =>
      list.some((d) => domain === d || (domain.length > d.length && domain.endsWith(d) && domain[domain.length - d.length - 1] === '.'));
    // A search meets few distinct domains among thousands of candidates: decide each once.
    const domainOk = new Map<string, boolean>();
    const start = f.start ?? '';
    const end = f.end ?? '9999-12-31';
    const domains = this.#domain;
    const days = this.#day;
    const countries = this.#country;
    return (s) => {
      if (hasDomains) {
        const d = domains[s];
        let ok = domainOk.get(d);
        if (ok === undefined) {
          ok = (f.include.length === 0 || under(d, f.include)) && !(f.exclude.length > 0 && under(d, f.exclude));
          domainOk.set(d, ok);
        }
        if (!ok) return false;
      }
      if (hasDates) {
        const day = days[s];
        if (day === null || day < start || day > end) return false;
      }
      if (country !== undefined && countries[s] !== null && countries[s] !== country) return false;
      return true;
    };
  }

  #lengthNorms(): Float64Array {
    if (this.#normsFor !== this.#tokens || this.#norms.length !== this.#lens.length) {
      const avgdl = this.#tokens / this.#rows;
      this.#norms = Float64Array.from(this.#lens, (len) => lengthNorm(len, avgdl));
      this.#normsFor = this.#tokens;
    }
    return this.#norms;
  }

  #ensureScratch(): void {
    if (this.#acc.length < this.#ids.length) {
      this.#acc = new Float64Array(this.#ids.length * 2);
      this.#touched = new Int32Array(this.#ids.length * 2);
    }
  }

  #changed(): void {
    this.#generation++;
    this.#normsFor = -1;
    this.#phraseHits.clear();
  }

  /** Renumbers the live documents densely and rebuilds the postings without dead slots. */
  #compact(): void {
    const newSlot = new Int32Array(this.#ids.length).fill(-1);
    const keep = (xs: unknown[]) => xs.filter((_, s) => this.#alive[s]);
    let next = 0;
    for (let s = 0; s < this.#ids.length; s++) if (this.#alive[s]) newSlot[s] = next++;
    for (const p of this.#postings) {
      let w = 0;
      for (let i = 0; i < p.length; i++) {
        const s = newSlot[p.slots[i]];
        if (s < 0) continue;
        p.slots[w] = s;
        p.freqs[w++] = p.freqs[i];
      }
      p.length = w;
    }
    this.#ids = keep(this.#ids) as number[];
    this.#lens = keep(this.#lens) as number[];
    this.#vectors = keep(this.#vectors) as Uint32Array[];
    this.#docs = keep(this.#docs) as RankerDocument[];
    this.#offsets = keep(this.#offsets) as Uint32Array[];
    this.#domain = keep(this.#domain) as string[];
    this.#day = keep(this.#day) as (string | null)[];
    this.#country = keep(this.#country) as (string | null)[];
    this.#alive = this.#ids.map(() => true);
    this.#ids.forEach((id, s) => this.#slotOf.set(id, s));
    this.#deadPostings = 0;
    this.#changed();
  }
}
