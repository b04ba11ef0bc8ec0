import { must } from '../../domain/must.ts';
import { TITLE_WEIGHT } from '../search-statements.ts';
import { END, type TermCursor } from './term-cursor.ts';

/** One token's positions in the document the cursors stand on. */
interface Run {
  cursor: TermCursor;
  pos: Int32Array;
  from: number;
  to: number;
  /** The token's place in the phrase. */
  offset: number;
  /** Where the search for the next instance resumes in pos. */
  at: number;
}

/**
 * The documents holding a phrase (its tokens at consecutive positions), in slot order, with
 * the phrase's column-weighted count in each (an instance starting in the title counts
 * TITLE_WEIGHT, as FTS5's bm25() weighs columns): the tokens' cursors are intersected by
 * leapfrogging (the one behind advances to the one ahead, skipping whole blocks), and the
 * positions are compared only where all of them stand on one document. Title and content
 * positions are one gap apart (ranker/memory-ranker.ts), so no instance runs across them.
 */
export class PhraseCursor {
  slot = END;
  /** The weighted count at `slot`. */
  freq = 0;
  readonly #cursors: TermCursor[];
  readonly #titleLens: () => Int32Array;
  readonly #runs: Run[];
  readonly #first: Run;
  /** The runs of the tokens after the first. */
  readonly #rest: Run[];

  readonly #any: boolean;

  /**
   * Cursors of the phrase's tokens, in phrase order (a token twice gets two cursors). With
   * `any`, `freq` is 1 at the first instance found (counting the documents that hold it).
   */
  constructor(cursors: TermCursor[], titleLens: () => Int32Array, any = false) {
    this.#cursors = cursors;
    this.#any = any;
    this.#titleLens = titleLens;
    this.#runs = cursors.map((cursor, offset) => ({ cursor, pos: new Int32Array(0), from: 0, to: 0, offset, at: 0 }));
    this.#first = must(this.#runs[0], "a phrase's first token");
    this.#rest = this.#runs.slice(1);
    this.#settle(0);
  }

  /** Postings decoded by the tokens' cursors. */
  get decoded(): number {
    return this.#cursors.reduce((n, c) => n + c.decoded, 0);
  }

  next(): void {
    this.#settle(this.slot + 1);
  }

  advance(target: number): void {
    if (this.slot < target) this.#settle(target);
  }

  /** Moves to the first document at or after `target` holding the phrase. */
  #settle(target: number): void {
    const cs = this.#cursors;
    for (;;) {
      let max = target;
      let agreed = false;
      while (!agreed) {
        agreed = true;
        for (const c of cs) {
          c.advance(max);
          if (c.slot === END) {
            this.slot = END;
            return;
          }
          if (c.slot > max) {
            max = c.slot;
            agreed = false;
          }
        }
      }
      const f = this.#count(max);
      if (f > 0) {
        this.slot = max;
        this.freq = f;
        return;
      }
      target = max + 1;
    }
  }

  /** The phrase's weighted count in the document all cursors stand on. */
  #count(slot: number): number {
    for (const run of this.#runs) {
      run.cursor.positions(run);
      run.at = run.from;
    }
    const first = this.#first;
    // Reads of positions stay inside each run's [from, to) and `slot` is a document's: their
    // `?? 0` only satisfies the type and is never taken (this runs per candidate document).
    const titleLen = this.#titleLens()[slot] ?? 0;
    let f = 0;
    for (let k = first.from; k < first.to; k++) {
      const start = first.pos[k] ?? 0;
      let ok = true;
      for (const run of this.#rest) {
        const want = start + run.offset;
        let j = run.at;
        while (j < run.to && (run.pos[j] ?? 0) < want) j++;
        run.at = j;
        ok = j < run.to && run.pos[j] === want;
        if (!ok) break;
      }
      if (!ok) continue;
      if (this.#any) return 1;
      f += start < titleLen ? TITLE_WEIGHT : 1;
    }
    return f;
  }
}
