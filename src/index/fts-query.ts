import { STOP_WORDS } from '../content/stop-words.ts';

/**
 * Turns any user text into FTS5 MATCH expressions that cannot be a syntax error.
 *
 * The user's syntax never reaches FTS5 (raw text raises syntax
 * errors on most natural-language queries, AND-of-terms ruins recall): the text is cut
 * into runs of letters, digits and combining marks; every other character (quotes, `*`,
 * `-`, `^`, `:`, parentheses, emoji) only separates words. Each word becomes a double-quoted FTS5 string,
 * so `AND`, `OR`, `NOT` and `NEAR` are plain words, and the strings are joined with OR.
 * Inside a quoted string FTS5 re-tokenises with the index's own tokenizer (porter,
 * unicode61, diacritics removed), so our cut never has to match its rules exactly.
 */

/** Bound on the OR clauses one query can make (a 400-character query has at most ~200). */
export const MAX_TERMS = 64;
/** Bound on the adjacency phrases used for the proximity bonus. */
export const MAX_PHRASES = 12;
/** Stop words allowed inside one adjacency phrase ("bank of america"). */
const MAX_GAP = 2;

const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\p{M}]*/gu;
const ASCII_WORD = /[a-z0-9]+/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export interface FtsQuery {
  /** Distinct lower-case query words, stop words dropped. */
  terms: string[];
  /**
   * `"a" OR "b" OR …`, or undefined when the text has no word but stop words. Such a
   * query finds nothing, on purpose: its words are in nearly every document, so ranking
   * them costs a scan of the whole index (measured 20-35 ms on 10k documents, growing with
   * the index) to return noise; falling back to them would let any caller stall the server.
   */
  match?: string;
  /** Adjacent query words as FTS5 phrases (`"bank of america" OR "new york"`), if any. */
  phrases?: string;
  /** The same spans as plain text (`bank of america`), for the in-memory ranker. */
  spans: string[];
}

/** Lower-case words of the text in order, with their stop-word flag. */
function words(text: string): { word: string; stop: boolean }[] {
  const out: { word: string; stop: boolean }[] = [];
  // Printable ASCII (most queries) needs neither NFC nor the Unicode-property scan, which
  // cost more than ranking a typical query in memory; its words are the same.
  const ascii = PRINTABLE_ASCII.test(text);
  for (const m of (ascii ? text : text.normalize('NFC')).toLowerCase().matchAll(ascii ? ASCII_WORD : WORD)) {
    out.push({ word: m[0], stop: STOP_WORDS.has(m[0]) });
  }
  return out;
}

const quote = (s: string): string => `"${s.replaceAll('"', '""')}"`;

const distinct = (xs: string[], max: number): string[] => [...new Set(xs)].slice(0, max);

/**
 * Spans of the query between two consecutive content words, with at most MAX_GAP stop
 * words between them: "bank of america" → ["bank of america"].
 */
function adjacentSpans(ws: { word: string; stop: boolean }[]): string[] {
  const spans: string[] = [];
  let prev = -1;
  ws.forEach((w, i) => {
    if (w.stop) return;
    if (prev >= 0 && i - prev - 1 <= MAX_GAP) {
      spans.push(
        ws
          .slice(prev, i + 1)
          .map((x) => x.word)
          .join(' '),
      );
    }
    prev = i;
  });
  return spans;
}

/** `"a" OR "b" OR …` of the given terms. */
export const orOfTerms = (terms: readonly string[]): string => terms.map(quote).join(' OR ');

export function buildFtsQuery(text: string): FtsQuery {
  const ws = words(text);
  const terms = distinct(
    ws.filter((w) => !w.stop).map((w) => w.word),
    MAX_TERMS,
  );
  if (terms.length === 0) return { terms, spans: [] };
  const spans = terms.length > 1 ? distinct(adjacentSpans(ws), MAX_PHRASES) : [];
  return {
    terms,
    match: orOfTerms(terms),
    spans,
    ...(spans.length > 0 ? { phrases: spans.map(quote).join(' OR ') } : {}),
  };
}
