import Database from 'better-sqlite3';
import { stemmer } from 'stemmer';
import { must } from '../../domain/must.ts';
import { FTS5_TOKENIZER } from '../schema.ts';

/**
 * The local index's tokenizer in JS: exactly the tokens FTS5 makes with the index's
 * tokenizer (`porter unicode61 remove_diacritics 2`, src/index/schema.ts), so the
 * in-memory ranker scores what bm25() scores. Checked token by token against FTS5 in
 * test/index/ranker/tokenize.test.ts.
 *
 * ASCII is done here: unicode61 keeps [0-9A-Za-z] runs, lower-cases them, and porter stems
 * those of 3..64 characters (fts5_porter.c; the `stemmer` package is the same 1980
 * algorithm, but for a "yy" in the word). Any run holding a non-ASCII character goes to FTS5 itself (a scratch
 * in-memory table), once per distinct run: unicode61 uses Unicode 6.1 tables of its own
 * (unassigned code points are token characters, only some marks are diacritics, its
 * case folding is not String#toLowerCase), which no JS regex reproduces.
 */
const ASCII_RUN = /^[0-9A-Za-z]+$/;

/** Distinct words/runs remembered (stems and FTS5 answers); cleared when full. */
const MAX_REMEMBERED = 200_000;

const stems = new Map<string, string>();
/** Run as written → its term, or null for a run FTS5 tokenizes (non-ASCII, "yy"). */
const runs = new Map<string, string | null>();

/** ASCII letters and digits, and every non-ASCII code unit (FTS5 decides those). */
export const isRunChar = (c: number): boolean =>
  c >= 0x80 || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** A lower-case ASCII alphanumeric word → its index term. */
function stemAscii(lower: string): string {
  let t = stems.get(lower);
  if (t === undefined) {
    t = lower.length >= 3 && lower.length <= 64 ? stemmer(lower) : lower;
    if (stems.size >= MAX_REMEMBERED) stems.clear();
    stems.set(lower, t);
  }
  return t;
}

/** FTS5 itself, on a scratch in-memory table, for the runs only it tokenizes (exported for tests). */
export class Fts5Oracle {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #read: Database.Statement;
  readonly #clear: Database.Statement;
  readonly #known = new Map<string, readonly string[]>();

  /** `maxRemembered`: runs remembered before the memory is cleared (tests set a small one). */
  constructor(private readonly maxRemembered = MAX_REMEMBERED) {
    this.#db = new Database(':memory:');
    this.#db.exec(
      `CREATE VIRTUAL TABLE o USING fts5(x, tokenize='${FTS5_TOKENIZER}');
       CREATE VIRTUAL TABLE ov USING fts5vocab(o, 'instance');`,
    );
    this.#insert = this.#db.prepare('INSERT INTO o(rowid, x) VALUES (?, ?)');
    this.#read = this.#db.prepare('SELECT term, doc, offset FROM ov');
    this.#clear = this.#db.prepare('DELETE FROM o');
  }

  /** The terms of each run, in order; unknown runs are tokenized by FTS5 in one batch. */
  terms(runs: readonly string[]): (readonly string[])[] {
    // This batch's answers are read before the memory may be cleared below: a run known
    // before the batch must not be lost with it (it once was, when the memory filled up
    // in the middle of a batch).
    const answer = new Map<string, readonly string[]>();
    for (const r of runs) {
      const known = this.#known.get(r);
      if (known !== undefined) answer.set(r, known);
    }
    const missing = [...new Set(runs.filter((r) => !answer.has(r)))];
    if (missing.length > 0) {
      const found = missing.map((run): { run: string; terms: string[] } => ({ run, terms: [] }));
      this.#db.transaction(() => {
        missing.forEach((r, i) => {
          this.#insert.run(i + 1, r);
        });
        for (const row of this.#read.iterate() as IterableIterator<{ term: string; doc: number; offset: number }>) {
          must(found[row.doc - 1], 'the run of a vocabulary row').terms[row.offset] = row.term;
        }
        this.#clear.run();
      })();
      if (this.#known.size + missing.length > this.maxRemembered) this.#known.clear();
      for (const { run, terms } of found) {
        this.#known.set(run, terms);
        answer.set(run, terms);
      }
    }
    return runs.map((r) => must(answer.get(r), 'the terms of a run just tokenized'));
  }
}

let oracle: Fts5Oracle | undefined;

/**
 * The index terms of a text, in order: position i is FTS5's offset i. With `offsets`, the
 * UTF-16 index where each term's word starts is pushed there too (the terms of a run FTS5
 * split share the run's start).
 */
export function tokenize(text: string, offsets?: number[]): string[] {
  // ASCII words are final at once; a run with other characters is a slot (its index in
  // `foreign`, a number) filled with FTS5's terms for it afterwards, in one batch.
  const parts: (string | number)[] = [];
  const starts: number[] = [];
  const foreign: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    // A hand scan: matchAll allocates a match array per word, which dominated builds.
    while (i < n && !isRunChar(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const from = i;
    while (i < n && isRunChar(text.charCodeAt(i))) i++;
    const run = text.slice(from, i);
    let t = runs.get(run);
    if (t === undefined) {
      const lower = run.toLowerCase();
      // `stemmer` takes the second y of "yy" for a vowel where fts5_porter.c does not
      // ("skyyed": sky vs skyi): such words are FTS5's too.
      t = ASCII_RUN.test(run) && !lower.includes('yy') ? stemAscii(lower) : null;
      if (runs.size >= MAX_REMEMBERED) runs.clear();
      runs.set(run, t);
    }
    parts.push(t ?? foreign.push(run) - 1);
    starts.push(from);
  }
  if (foreign.length === 0) {
    if (offsets) for (const at of starts) offsets.push(at);
    return parts as string[];
  }
  const terms = (oracle ??= new Fts5Oracle()).terms(foreign);
  const out: string[] = [];
  parts.forEach((p, k) => {
    const start = must(starts[k], "a run's start");
    if (typeof p === 'string') {
      out.push(p);
      offsets?.push(start);
    } else {
      for (const term of must(terms[p], "a foreign run's terms")) {
        out.push(term);
        offsets?.push(start);
      }
    }
  });
  return out;
}

/** The end of the word starting at `at` (what a match in a snippet covers). */
export function wordEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && isRunChar(text.charCodeAt(end))) end++;
  return end;
}
