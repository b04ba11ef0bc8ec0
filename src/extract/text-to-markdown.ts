import { isBlank, isNewline, longestRun, trimEndWhere } from './text-scan.ts';
import { must } from '../domain/must.ts';

/** A fence longer than any backtick run inside `body`, so the block cannot end early. */
export function fence(body: string): string {
  // A loop, not Math.max(...runs): spreading a few hundred thousand runs overflows the stack.
  return '`'.repeat(Math.max(2, longestRun(body, '`')) + 1);
}

export function fenced(body: string, language: string): string {
  const f = fence(body);
  return `${f}${language}\n${trimEndWhere(body, isNewline)}\n${f}`;
}

/** JSON pretty-printed in a json fence; text that does not parse goes in a plain fence as is. */
export function jsonToMarkdown(text: string): string {
  try {
    return fenced(JSON.stringify(JSON.parse(text), null, 2), 'json');
  } catch {
    return fenced(text, '');
  }
}

/** Line breaks as the `m` flag sees them: `^` and `$` match around each. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const ATX_OPENING = /^ {0,3}#{1,2}[ \t]/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const isAtxClosing = (c: string): boolean => c === ' ' || c === '\t' || c === '#';

/**
 * Text of an ATX level-1/2 heading line, or null. Same result as
 * `/^ {0,3}#{1,2}[ \t]+(.+?)[ \t#]*$/` on the line, whose lazy `(.+?)` followed by
 * `[ \t#]*$` is quadratic on a line of `' #'` pairs.
 */
function atxText(line: string): string | null {
  const opening = ATX_OPENING.exec(line);
  if (opening === null) return null;
  const spaceStart = opening[0].length - 1;
  let start = opening[0].length;
  while (start < line.length && isBlank(line.charAt(start))) start += 1;
  // All blanks: the regex still matches when there are two, taking the last as the text.
  if (start === line.length) return start - spaceStart >= 2 ? '' : null;
  let end = line.length;
  while (end > start + 1 && isAtxClosing(line.charAt(end - 1))) end -= 1;
  return line.slice(start, end).trim();
}

/** Title of a markdown text: its first ATX or setext level-1/2 heading. */
export function markdownTitle(text: string): string {
  const lines = text.split(LINE_BREAK);
  for (const line of lines) {
    const atx = atxText(line);
    if (atx !== null) return atx;
  }
  // Setext: a non-empty line, then after a `\n` an underline of `=` or `-`.
  const rows = text.split('\n');
  for (const [i, row] of rows.entries()) {
    const next = rows[i + 1];
    if (next === undefined) break;
    if (row === '') continue;
    if (SETEXT_UNDERLINE.test(must(next.split(LINE_BREAK)[0], 'the first piece of a split'))) return row.trim();
  }
  return '';
}

/** Line endings normalised; text otherwise passes through untouched. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
