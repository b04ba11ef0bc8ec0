import { isRunChar, tokenize } from './tokenize.ts';

/** Runs remembered; cleared when full (as tokenize.ts bounds its own memory). */
const MAX_RUNS = 200_000;

/**
 * Term ids of a text for the ranker's builds, the tokens tokenize() makes, faster: a text's
 * tokens are its runs' tokens one after another (tokenize.ts cuts runs and tokenizes each
 * on its own), so each distinct run is tokenized once and remembered with its term ids.
 * A document then costs one scan and one map look-up per word, instead of a string per
 * token and a second look-up from term to id (the build's largest cost, measured).
 */
export class RunIds {
  readonly #intern: (term: string) => number;
  readonly #runs = new Map<string, number | readonly number[]>();

  /** `intern`: the term's id, made when new. */
  constructor(intern: (term: string) => number) {
    this.#intern = intern;
  }

  /** Appends the term ids of `text`'s tokens to `out`; returns how many. */
  ids(text: string, out: number[]): number {
    const before = out.length;
    const n = text.length;
    let i = 0;
    while (i < n) {
      while (i < n && !isRunChar(text.charCodeAt(i))) i++;
      if (i >= n) break;
      const from = i;
      while (i < n && isRunChar(text.charCodeAt(i))) i++;
      const run = text.slice(from, i);
      let known = this.#runs.get(run);
      if (known === undefined) {
        const terms = tokenize(run).map((t) => this.#intern(t));
        const [only] = terms;
        known = terms.length === 1 && only !== undefined ? only : terms;
        if (this.#runs.size >= MAX_RUNS) this.#runs.clear();
        this.#runs.set(run, known);
      }
      if (typeof known === 'number') out.push(known);
      else for (const id of known) out.push(id);
    }
    return out.length - before;
  }
}
