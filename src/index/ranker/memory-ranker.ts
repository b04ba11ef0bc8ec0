import { must } from '../../domain/must.ts';
import { informativeOf } from '../doc-frequency.ts';
import { contribution, idf, lengthNorm } from './bm25.ts';
import { proximityWindow } from './proximity-window.ts';
import { buildVector, runEnd, runStart, termsOf, VectorScratch, weightedFrequency } from './doc-vector.ts';
import { DocTable } from './doc-table.ts';
import { collectTop, decodedBy, PhraseScorer, TermScorer, type Scorer } from './max-score.ts';
import { PhraseCounts } from './phrase-counts.ts';
import { PhraseCursor } from './phrase-cursor.ts';
import { PostingStore } from './posting-store.ts';
import { RunIds } from './run-ids.ts';
import { slotFilter } from './slot-filter.ts';
import { SpillFile } from './spill-file.ts';
import { END, TermCursor } from './term-cursor.ts';
import { TopK } from './top-k.ts';
import { queryTerms } from './query-terms.ts';
import type { RankerDocument } from '../../store/index-rows.ts';
import type { Ranked, RankerHit, RankQuery } from './ranker-types.ts';

export type { Ranked, RankerHit, RankQuery } from './ranker-types.ts';

/** What must() names when a per-slot array has no place for a slot. */
const SLOT = "a slot's entry";

/** Dead postings tolerated before a compaction (and at least as many as the live ones). */
const COMPACT_AFTER = 4096;

export interface MemoryRankerOptions {
  /**
   * Keep each document's url, title, content and date for page(): a follower of a shared
   * store has nowhere else to read them synchronously. The embedded index reads them from
   * its file instead, so its ranker holds postings and numbers only.
   */
  keepTexts?: boolean;
  /**
   * Bytes the ranker may hold in memory (postings, tables, kept texts). Past it, sealed
   * posting blocks move to a spill file (spill-file.ts) and are read from there; searches
   * keep the same answers. Default: no limit.
   */
  budgetBytes?: number;
  /** Where the spill file's private directory is made. Default: the OS temporary directory. */
  spillDir?: string;
}

/** What the ranker holds, for status pages and benchmarks. */
export interface RankerMemory {
  /** Estimated heap bytes of postings, tables and kept texts. */
  heapBytes: number;
  /** Bytes of postings moved to the spill file. */
  spilledBytes: number;
  /** Tokens of the live documents. */
  tokens: number;
  terms: number;
  /** Rebuilds without dead postings so far. */
  compactions: number;
}

/**
 * The local index's ranking: an inverted index of the same tokens FTS5 keeps
 * (ranker/tokenize.ts), scored with FTS5's bm25() (ranker/bm25.ts), so answers equal the
 * SQL path's (test/index/ranker/ranker-equivalence.test.ts).
 *
 * Postings are compact (posting-store.ts: variable-byte gaps in blocks of 128 with
 * positions, about the text's size: bench:index) and a search takes the top-k with MaxScore and
 * block-max skipping (max-score.ts), so it reads a small part of the postings of common
 * words; the result is exactly the exhaustive one (test/index/ranker/pruning.test.ts).
 * Filters are tested on candidates that can still enter the top-k. The proximity bonus
 * (adjacent query words as FTS5 phrases) intersects the words' postings and compares
 * positions. Deleting marks a slot dead; when dead postings outnumber live ones everything
 * is rebuilt without them.
 */
export class MemoryRanker {
  readonly #termIds = new Map<string, number>();
  #termChars = 0;
  #docs: DocTable;
  #store: PostingStore;
  readonly #slotOf = new Map<number, number>();
  #tokens = 0;
  #livePostings = 0;
  #deadPostings = 0;
  readonly #phraseCounts = new PhraseCounts();
  #compactions = 0;
  #top?: TopK;
  readonly #scratch = new VectorScratch();
  readonly #runIds = new RunIds((term) => this.#termId(term));
  /** Token ids of the document being added (reused). */
  readonly #ids: number[] = [];
  readonly #keepTexts: boolean;
  readonly #budget: number;
  readonly #spillDir: string | undefined;
  #spill: SpillFile | undefined;
  /** Posting bytes in memory after the last spill: the next one waits for some growth. */
  #spilledAt = 0;
  /** Postings decoded by the last rank() (benchmarks). */
  lastDecoded = 0;

  constructor(options: MemoryRankerOptions = {}) {
    this.#keepTexts = options.keepTexts ?? true;
    this.#budget = options.budgetBytes ?? Infinity;
    this.#spillDir = options.spillDir;
    this.#docs = new DocTable(this.#keepTexts);
    this.#store = this.#newStore(() => this.#docs);
  }

  #newStore(docs: () => DocTable): PostingStore {
    return new PostingStore(() => docs().lens);
  }

  /** Live documents. */
  get size(): number {
    return this.#slotOf.size;
  }

  memory(): RankerMemory {
    return {
      heapBytes: this.#heapBytes(),
      spilledBytes: this.#store.spilledBytes,
      tokens: this.#tokens,
      terms: this.#store.terms,
      compactions: this.#compactions,
    };
  }

  /** Adds a document, replacing the one of the same id. */
  add(doc: RankerDocument): void {
    this.remove(doc.id);
    const ids = this.#ids;
    ids.length = 0;
    const titleLen = this.#runIds.ids(doc.title, ids);
    this.#runIds.ids(doc.content, ids);
    const total = ids.length;
    const v = buildVector(ids, titleLen, this.#store.terms, this.#scratch);
    const terms = termsOf(v);
    const slot = this.#docs.push(doc, total, titleLen, terms);
    this.#tokens += total;
    const avgdl = this.#tokens / (this.#slotOf.size + 1);
    for (let j = 0; j < terms.length; j++) {
      // j < terms.length: the `?? 0` only satisfies the type and is never taken.
      this.#store.append(terms[j] ?? 0, slot, weightedFrequency(v, j), total, v, runStart(v, j), runEnd(v, j), avgdl);
    }
    this.#slotOf.set(doc.id, slot);
    this.#livePostings += terms.length;
    this.#keepWithinBudget();
  }

  #termId(tok: string): number {
    let id = this.#termIds.get(tok);
    if (id === undefined) {
      id = this.#termIds.size;
      this.#termIds.set(tok, id);
      this.#termChars += tok.length;
      this.#store.addTerms(id + 1);
    }
    return id;
  }

  /** Removes a document; unknown ids are ignored. */
  remove(id: number): void {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return;
    this.#slotOf.delete(id);
    let n = 0;
    this.#docs.kill(slot, (t) => {
      this.#store.df[t] = this.#store.docCount(t) - 1;
      n++;
    });
    this.#tokens -= must(this.#docs.lens[slot], SLOT);
    this.#livePostings -= n;
    this.#deadPostings += n;
    this.#phraseCounts.removed(slot);
    if (this.#deadPostings > COMPACT_AFTER && this.#deadPostings > this.#livePostings) this.#compact();
  }

  /**
   * Ranked ids, best first, as LocalIndex's SQL path ranks them; undefined only for a query
   * word or span of more than MAX_PHRASE_TOKENS tokens (longer than any 400-character query
   * makes). A word FTS5 splits into several tokens is matched as the phrase FTS5 makes of
   * it; a word it makes no token of matches nothing, as in FTS5. `prune: false` scores every
   * posting (the reference of the tests and benchmarks).
   */
  rank(q: RankQuery, prune = true): Ranked[] | undefined {
    const parsed = queryTerms(q, this.#termIds);
    if (parsed === undefined) return undefined;
    const { words, spans } = parsed;
    this.lastDecoded = 0;

    // The SQL path's rule (doc-frequency.ts), on this index's document frequencies.
    const informative = informativeOf(words, (w) => this.#frequency(w), this.size);
    // Decided on the spans as the SQL path has them (a span FTS5 makes no token of still counts).
    const rerank = spans.length > 0;
    const limit = rerank ? Math.max(q.wanted, q.rerankWindow) : q.wanted;
    const accept = slotFilter(q.filters, (slot) => this.#docs.filterable(slot));
    const ranked = this.#score(informative, limit, accept, prune);
    if (ranked.length < q.wanted && informative.length < words.length) {
      const seen = new Set(ranked.map((r) => r.id));
      for (const r of this.#score(words, limit, accept, prune)) if (!seen.has(r.id)) ranked.push(r);
    }
    const phrases = spans.filter((s) => s.length > 0);
    return rerank && ranked.length > 1 ? this.#proximity(ranked, phrases, q.proximityWeight, q.wanted) : ranked;
  }

  /** Live documents holding a query word: its term's, or its phrase's when FTS5 split it. */
  #frequency(word: readonly number[]): number {
    if (word.length === 0 || word.some((t) => t < 0)) return 0;
    const [only] = word;
    return word.length === 1 && only !== undefined ? this.#store.docCount(only) : this.#phraseHitsOf(word);
  }

  /** Whether page() can give texts (the ranker keeps them). */
  get keepsTexts(): boolean {
    return this.#keepTexts;
  }

  /** The shown fields of ranked documents still held (texts must be kept: see keepTexts). */
  page(ranked: readonly Ranked[]): RankerHit[] {
    const hits: RankerHit[] = [];
    for (const r of ranked) {
      const slot = r.slot ?? this.#slotOf.get(r.id);
      const text = slot === undefined || this.#docs.live[slot] !== 1 ? undefined : this.#docs.text(slot);
      if (text) hits.push({ score: r.score, ...text });
    }
    return hits;
  }

  /** Top `limit` accepted documents by the summed bm25() of the words (their term ids; each once per word). */
  #score(
    words: readonly (readonly number[])[],
    limit: number,
    accept: ((slot: number) => boolean) | undefined,
    prune: boolean,
  ): Ranked[] {
    const avgdl = this.#tokens / this.size;
    const scorers: Scorer[] = [];
    for (const word of words) {
      if (word.length === 0 || word.some((t) => t < 0)) continue;
      const [t] = word;
      if (word.length === 1 && t !== undefined) {
        const df = this.#store.docCount(t);
        if (df === 0) continue;
        const w = idf(this.size, df);
        scorers.push(new TermScorer(this.#cursor(t), w, this.#store.termG(t, avgdl)));
      } else {
        const hits = this.#phraseHitsOf(word);
        if (hits > 0) scorers.push(new PhraseScorer(this.#phrase(word), idf(this.size, hits)));
      }
    }
    const top = this.#top?.k === limit ? this.#top : (this.#top = new TopK(limit));
    top.clear();
    collectTop(
      scorers,
      { lens: this.#docs.lens, live: this.#docs.live, ids: this.#docs.ids, avgdl },
      top,
      accept,
      prune,
    );
    this.lastDecoded += decodedBy(scorers);
    return top.sorted();
  }

  #cursor(t: number): TermCursor {
    return new TermCursor(this.#store, t, this.#spill);
  }

  #phrase(phrase: readonly number[], any = false): PhraseCursor {
    return new PhraseCursor(
      phrase.map((t) => this.#cursor(t)),
      () => this.#docs.titleLens,
      any,
    );
  }

  /** Adds proximityWeight × bm25() of the spans as phrases to the leaders that can still reach the page (proximityWindow), then re-sorts (stable). */
  #proximity(ranked: Ranked[], spans: string[][], weight: number, wanted: number): Ranked[] {
    const phrases = spans
      .map((toks) => toks.map((t) => this.#termIds.get(t) ?? -1))
      .filter((p) => !p.some((t) => t < 0));
    if (phrases.length === 0) return ranked;
    const end = proximityWindow(ranked, wanted, phrases.length, weight, this.size);
    const avgdl = this.#tokens / this.size;
    const head = ranked
      .slice(0, end)
      .map((r) => ({ id: r.id, score: r.score, slot: r.slot ?? this.#slotOf.get(r.id)!, bonus: 0 }));
    // Each phrase's instances in the head, its cursor moving up the head's slots in order.
    const bySlot = [...head].sort((a, b) => a.slot - b.slot);
    for (const phrase of phrases) {
      const cursor = this.#phrase(phrase);
      let w: number | undefined;
      for (const r of bySlot) {
        cursor.advance(r.slot);
        if (cursor.slot === END) break;
        if (cursor.slot !== r.slot) continue;
        w ??= idf(this.size, this.#phraseHitsOf(phrase));
        r.bonus += contribution(w, cursor.freq, lengthNorm(must(this.#docs.lens[r.slot], SLOT), avgdl));
      }
      this.lastDecoded += cursor.decoded;
    }
    if (!head.some((r) => r.bonus > 0)) return ranked;
    const rescored: Ranked[] = head.map((r) => ({ id: r.id, score: r.score + weight * r.bonus, slot: r.slot }));
    rescored.sort((a, b) => b.score - a.score);
    return end === ranked.length ? rescored : rescored.concat(ranked.slice(end));
  }

  /** Live documents holding the phrase (known term ids; FTS5 counts them for the phrase's IDF). */
  #phraseHitsOf(phrase: readonly number[]): number {
    const hits = this.#phraseCounts.hits(phrase, this.#docs.slots, this.#docs.live, () => this.#phrase(phrase, true));
    this.lastDecoded += this.#phraseCounts.decoded;
    return hits;
  }

  #heapBytes(): number {
    return this.#store.heapBytes + this.#docs.bytes + this.#termIds.size * 80 + this.#termChars * 2;
  }

  /** Moves sealed posting blocks to the spill file once the budget is spent (and postings grew since). */
  #keepWithinBudget(): void {
    if (this.#budget === Infinity) return;
    const postings = this.#store.heapBytes;
    if (postings - this.#spilledAt < Math.min(16 << 20, Math.max(64 << 10, this.#budget / 16))) return;
    if (this.#heapBytes() <= this.#budget) return;
    this.#spill ??= new SpillFile(this.#spillDir);
    this.#store.spill(this.#spill);
    this.#spilledAt = this.#store.heapBytes;
  }

  /** Renumbers the live documents densely and rebuilds the postings without dead slots. */
  #compact(): void {
    const old = this.#docs;
    const docs = new DocTable(this.#keepTexts);
    const newSlot = new Int32Array(old.slots).fill(-1);
    for (let s = 0; s < old.slots; s++) if (old.live[s] === 1) newSlot[s] = old.carry(s, docs);
    const store = this.#newStore(() => docs);
    store.addTerms(this.#store.terms);
    const avgdl = this.#tokens / this.size;
    const run = { pos: new Int32Array(0), from: 0, to: 0 };
    for (let t = 0; t < this.#store.terms; t++) {
      if (this.#store.df[t] === 0) continue;
      for (const c = this.#cursor(t); c.slot !== END; c.next()) {
        const s = must(newSlot[c.slot], SLOT);
        if (s < 0) continue;
        c.positions(run);
        store.append(t, s, c.wf, must(docs.lens[s], SLOT), run.pos, run.from, run.to, avgdl);
      }
    }
    this.#spill?.close();
    this.#spill = undefined;
    this.#spilledAt = 0;
    this.#store = store;
    this.#docs = docs;
    for (let s = 0; s < docs.slots; s++) this.#slotOf.set(must(docs.ids[s], SLOT), s);
    this.#deadPostings = 0;
    this.#compactions++;
    // Slots were renumbered: remembered counts and the removal log no longer apply.
    this.#phraseCounts.reset();
    this.#keepWithinBudget();
  }

  /** Gives back the room its arrays grew into (after a build; see PostingStore.trim). */
  trim(): void {
    this.#store.trim();
    this.#docs.trim();
  }

  /** Deletes the spill file (the ranker is not used again). */
  close(): void {
    this.#spill?.close();
    this.#spill = undefined;
  }
}
