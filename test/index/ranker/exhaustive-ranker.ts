import { must } from '../../../src/domain/must.ts';
import { informativeOf } from '../../../src/index/doc-frequency.ts';
import type { Match } from '../../../src/index/snippet.ts';
import { contribution, idf, lengthNorm } from '../../../src/index/ranker/bm25.ts';
import { proximityWindow } from '../../../src/index/ranker/proximity-window.ts';
import {
  buildVector,
  EMPTY_VECTOR,
  matchesIn,
  phraseFreq,
  termCount,
  termsOf,
  VectorScratch,
  weightedFrequency,
} from '../../../src/index/ranker/doc-vector.ts';
import { Postings } from './vector-postings.ts';
import { slotFilter } from '../../../src/index/ranker/slot-filter.ts';
import { TopK } from '../../../src/index/ranker/top-k.ts';
import { tokenize } from '../../../src/index/ranker/tokenize.ts';
import { queryTerms } from '../../../src/index/ranker/query-terms.ts';
import type { RankerDocument } from '../../../src/store/index-rows.ts';
import type { Ranked, RankerHit, RankQuery } from '../../../src/index/ranker/ranker-types.ts';

export type { Ranked, RankerHit, RankQuery } from '../../../src/index/ranker/ranker-types.ts';

/** Phrase document frequencies remembered between writes. */
const PHRASES_REMEMBERED = 20_000;

/**
 * The ranker Scout used before compact postings and pruning (memory-ranker.ts), kept as the
 * reference they are checked against (test/index/ranker/pruning.test.ts) and benchmarked
 * beside (bench/index.ts); no server path uses it. Same tokens, bm25() and answers, but
 * every document's term vector, positions and text live in plain arrays (about 5x the
 * text's size), and a search scores every posting of every query term (one pass and a
 * top-k heap).
 *
 * Filters are tested on the candidates in memory; the proximity bonus (adjacent query
 * words as FTS5 phrases) uses the kept positions. Deleting marks a slot dead; dead
 * postings are dropped when they outnumber the live ones.
 *
 * Every slot has its length, vector and offsets (a removed one empty ones) and every term id
 * its postings: a read that finds none is a broken invariant (must()). In the loops over
 * postings, whose indexes stay below their length and whose slots are documents', a
 * typed-array read's `?? 0` only satisfies the type and is never taken.
 */
export class ExhaustiveRanker {
  readonly #termIds = new Map<string, number>();
  readonly #postings: Postings[] = [];
  readonly #slotOf = new Map<number, number>();
  /*
   * Per slot: the document (undefined once removed), its token count, its vector and the
   * UTF-16 start of each content token (snippets are cut around them).
   */
  #lens: number[] = [];
  #vectors: Uint32Array[] = [];
  #docs: (RankerDocument | undefined)[] = [];
  #offsets: Uint32Array[] = [];
  /** bm25()'s length part per slot; empty when a change made it stale. */
  #norms = new Float64Array(0);
  #tokens = 0;
  #livePostings = 0;
  #deadPostings = 0;
  /** Phrase document frequencies, valid until the next change. */
  readonly #phraseHits = new Map<string, number>();
  #acc = new Float64Array(0);
  /** The heap of the last search, reused while the page size stays the same. */
  #top?: TopK;
  readonly #scratch = new VectorScratch();
  /** Bumped by every add and remove: cached impacts of older generations are stale. */
  #generation = 0;
  #touched = new Int32Array(0);

  /** Live documents. */
  get size(): number {
    return this.#slotOf.size;
  }

  /** Adds a document, replacing the one of the same id. */
  add(doc: RankerDocument): void {
    this.remove(doc.id);
    const title = tokenize(doc.title);
    const offsets: number[] = [];
    const content = tokenize(doc.content, offsets);
    const total = title.length + content.length;
    const tokIds = Int32Array.from(title.concat(content), (tok) => this.#termId(tok));
    const v = buildVector(tokIds, title.length, this.#postings.length, this.#scratch);
    const slot = this.#docs.length;
    termsOf(v).forEach((t, j) => {
      const p = this.#postingsOf(t);
      p.push(slot, weightedFrequency(v, j));
      p.df++;
    });
    this.#slotOf.set(doc.id, slot);
    this.#lens.push(total);
    this.#vectors.push(v);
    this.#docs.push({ ...doc });
    this.#offsets.push(Uint32Array.from(offsets));
    this.#tokens += total;
    this.#livePostings += termCount(v);
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

  #postingsOf(t: number): Postings {
    return must(this.#postings[t], "a term id's postings");
  }

  #vectorOf(slot: number): Uint32Array {
    return must(this.#vectors[slot], "a slot's vector");
  }

  /** Removes a document; unknown ids are ignored. */
  remove(id: number): void {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return;
    this.#slotOf.delete(id);
    const v = this.#vectorOf(slot);
    for (const t of termsOf(v)) this.#postingsOf(t).df--;
    this.#vectors[slot] = EMPTY_VECTOR;
    this.#docs[slot] = undefined;
    this.#offsets[slot] = EMPTY_VECTOR;
    this.#tokens -= must(this.#lens[slot], "a slot's length");
    this.#livePostings -= termCount(v);
    this.#deadPostings += termCount(v);
    this.#changed();
    if (this.#deadPostings > 4096 && this.#deadPostings > this.#livePostings) this.#compact();
  }

  /**
   * Ranked ids, best first, as LocalIndex's SQL path ranks them; undefined only for a query
   * word or span of more than MAX_PHRASE_TOKENS tokens (longer than any 400-character query
   * makes). A word FTS5 splits into several tokens is matched as the phrase FTS5 makes of
   * it; a word it makes no token of matches nothing, as in FTS5.
   */
  rank(q: RankQuery): Ranked[] | undefined {
    const parsed = queryTerms(q, this.#termIds);
    if (parsed === undefined) return undefined;
    const { words, spans } = parsed;

    // The SQL path's rule (doc-frequency.ts), on this index's document frequencies.
    const informative = informativeOf(words, (w) => this.#frequency(w), this.size);
    // Decided on the spans as the SQL path has them (a span FTS5 makes no token of still counts).
    const rerank = spans.length > 0;
    const limit = rerank ? Math.max(q.wanted, q.rerankWindow) : q.wanted;
    const accept = slotFilter(q.filters, (slot) => must(this.#docs[slot], 'a candidate document'));
    const ranked = this.#score(informative, limit, accept);
    if (ranked.length < q.wanted && informative.length < words.length) {
      const seen = new Set(ranked.map((r) => r.id));
      for (const r of this.#score(words, limit, accept)) if (!seen.has(r.id)) ranked.push(r);
    }
    const phrases = spans.filter((s) => s.length > 0);
    return rerank && ranked.length > 1 ? this.#proximity(ranked, phrases, q.proximityWeight, q.wanted) : ranked;
  }

  /** Live documents holding a query word: its term's, or its phrase's when FTS5 split it. */
  #frequency(word: readonly number[]): number {
    if (word.length === 0 || word.some((t) => t < 0)) return 0;
    const [only] = word;
    return word.length === 1 && only !== undefined ? this.#postingsOf(only).df : this.#phraseHitsOf(word);
  }

  /**
   * The shown fields of ranked documents, with where the query words occur in each
   * content (from the kept positions: the index's own stems, no text scan).
   */
  page(ranked: readonly Ranked[], words: readonly string[]): (RankerHit & { matches: Match[] })[] {
    const terms: number[] = [];
    for (const w of words) {
      for (const tok of tokenize(w)) {
        const id = this.#termIds.get(tok);
        if (id !== undefined && !terms.includes(id)) terms.push(id);
      }
    }
    const hits: (RankerHit & { matches: Match[] })[] = [];
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
        matches: matchesIn(this.#vectorOf(slot), must(this.#offsets[slot], "a slot's offsets"), doc.content, terms),
      });
    }
    return hits;
  }

  /** Top `limit` accepted documents by the summed bm25() of the words (their term ids; each once per word). */
  #score(
    words: readonly (readonly number[])[],
    limit: number,
    accept: ((slot: number) => boolean) | undefined,
  ): Ranked[] {
    this.#ensureScratch();
    const acc = this.#acc;
    const touched = this.#touched;
    let nTouched = 0;
    for (const word of words) {
      const [t] = word;
      if (word.length !== 1 || t === undefined) {
        nTouched = this.#scorePhrase(word, nTouched);
        continue;
      }
      if (t < 0) continue;
      const p = this.#postingsOf(t);
      if (p.df === 0) continue;
      const impacts = this.#impacts(p);
      const { slots, length } = p;
      for (let i = 0; i < length; i++) {
        const c = impacts[i] ?? 0;
        if (c === 0) continue; // a dead slot
        const s = slots[i] ?? 0;
        const a = acc[s] ?? 0;
        if (a === 0) touched[nTouched++] = s;
        acc[s] = a + c;
      }
    }
    const top = this.#top?.k === limit ? this.#top : (this.#top = new TopK(limit));
    top.clear();
    const docs = this.#docs;
    for (let i = 0; i < nTouched; i++) {
      const s = touched[i] ?? 0;
      const score = acc[s] ?? 0;
      acc[s] = 0;
      if (top.admits(score) && (accept === undefined || accept(s))) {
        top.offer(score, must(docs[s], 'a scored document').id, s);
      }
    }
    return top.sorted();
  }

  /**
   * Adds the bm25() of a word FTS5 matches as a phrase (several tokens) to the scratch
   * scores, over the documents holding its rarest term; returns the new touched count.
   */
  #scorePhrase(phrase: readonly number[], nTouched: number): number {
    if (phrase.length === 0 || phrase.some((t) => t < 0)) return nTouched;
    const hits = this.#phraseHitsOf(phrase);
    if (hits === 0) return nTouched;
    const w = idf(this.size, hits);
    const norms = this.#lengthNorms();
    const acc = this.#acc;
    const p = this.#postingsOf(this.#rarest(phrase));
    for (let i = 0; i < p.length; i++) {
      const s = p.slots[i] ?? 0;
      if (this.#docs[s] === undefined) continue;
      const f = phraseFreq(this.#vectorOf(s), phrase);
      if (f === 0) continue;
      const a = acc[s] ?? 0;
      if (a === 0) this.#touched[nTouched++] = s;
      acc[s] = a + contribution(w, f, norms[s] ?? 0);
    }
    return nTouched;
  }

  /** The phrase's term with the fewest live documents (known term ids). */
  #rarest(phrase: readonly number[]): number {
    return phrase.reduce((a, t) => (this.#postingsOf(t).df < this.#postingsOf(a).df ? t : a));
  }

  /**
   * The term's postings as bm25() additions, computed once per ranker generation (any
   * write is a new one): a search then adds numbers instead of evaluating the formula for
   * every posting. Same operations as contribution(), so the same doubles.
   */
  #impacts(p: Postings): Float64Array {
    if (p.impactsAt === this.#generation) return p.impacts;
    const norms = this.#lengthNorms();
    const w = idf(this.size, p.df);
    if (p.impacts.length < p.length) p.impacts = new Float64Array(p.slots.length);
    const { slots, freqs, impacts, length } = p;
    const docs = this.#docs;
    for (let i = 0; i < length; i++) {
      const s = slots[i] ?? 0;
      impacts[i] = docs[s] !== undefined ? contribution(w, freqs[i] ?? 0, norms[s] ?? 0) : 0;
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
    const phrases = spans
      .map((toks) => toks.map((t) => this.#termIds.get(t) ?? -1))
      .filter((p) => !p.some((t) => t < 0));
    if (phrases.length === 0) return ranked;
    const end = proximityWindow(ranked, wanted, phrases.length, weight, this.size);
    const norms = this.#lengthNorms();
    let any = false;
    const head: Ranked[] = ranked.slice(0, end).map((r) => {
      const slot = r.slot ?? this.#slotOf.get(r.id)!;
      let bonus = 0;
      for (const phrase of phrases) {
        const f = phraseFreq(this.#vectorOf(slot), phrase);
        if (f > 0)
          bonus += contribution(idf(this.size, this.#phraseHitsOf(phrase)), f, must(norms[slot], "a slot's norm"));
      }
      if (bonus > 0) any = true;
      return { id: r.id, score: r.score + weight * bonus, slot };
    });
    if (!any) return ranked;
    head.sort((a, b) => b.score - a.score);
    return end === ranked.length ? head : head.concat(ranked.slice(end));
  }

  /** Live documents holding the phrase (known term ids; FTS5 counts them for the phrase's IDF). */
  #phraseHitsOf(phrase: readonly number[]): number {
    const key = phrase.join(' ');
    let hits = this.#phraseHits.get(key);
    if (hits !== undefined) return hits;
    hits = 0;
    const p = this.#postingsOf(this.#rarest(phrase));
    for (let i = 0; i < p.length; i++) {
      const s = p.slots[i] ?? 0;
      if (this.#docs[s] !== undefined && phraseFreq(this.#vectorOf(s), phrase, true) > 0) hits++;
    }
    // Bounded: distinct phrases of distinct queries would otherwise pile up until a write.
    if (this.#phraseHits.size >= PHRASES_REMEMBERED) this.#phraseHits.clear();
    this.#phraseHits.set(key, hits);
    return hits;
  }

  #lengthNorms(): Float64Array {
    if (this.#norms.length !== this.#lens.length) {
      const avgdl = this.#tokens / this.size;
      this.#norms = Float64Array.from(this.#lens, (len) => lengthNorm(len, avgdl));
    }
    return this.#norms;
  }

  #ensureScratch(): void {
    if (this.#acc.length < this.#docs.length) {
      this.#acc = new Float64Array(this.#docs.length * 2);
      this.#touched = new Int32Array(this.#docs.length * 2);
    }
  }

  #changed(): void {
    this.#generation++;
    this.#norms = new Float64Array(0);
    this.#phraseHits.clear();
  }

  /** Renumbers the live documents densely and rebuilds the postings without dead slots. */
  #compact(): void {
    const newSlot = new Int32Array(this.#docs.length).fill(-1);
    const live = (_: unknown, s: number): boolean => this.#docs[s] !== undefined;
    let next = 0;
    for (let s = 0; s < this.#docs.length; s++) if (live(null, s)) newSlot[s] = next++;
    for (const p of this.#postings) p.renumber(newSlot);
    this.#lens = this.#lens.filter(live);
    this.#vectors = this.#vectors.filter(live);
    this.#offsets = this.#offsets.filter(live);
    this.#docs = this.#docs.filter(live);
    this.#docs.forEach((doc, s) => {
      this.#slotOf.set(doc!.id, s);
    });
    this.#deadPostings = 0;
    this.#changed();
  }
}
