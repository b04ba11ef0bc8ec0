/**
 * Inline markdown rules of plain-text.ts as scanners. Each function gives exactly what the
 * regex in its comment gives with `replace` (or `test`), in time linear in the line: the
 * regexes have overlapping or unbounded quantifiers that retry from every start position,
 * which a hostile page turns into seconds of blocked event loop (40,000 backticks took 1.1 s,
 * "**a " 20,000 times 2 s). The tests check the scanners against the regexes.
 */

const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);

/** The first index ≥ `from` where `line` has the closing `marker` of a strong span (after a non-space), or -1. */
function strongCloser(line: string, marker: string, from: number): number {
  let j = line.indexOf(marker, from);
  while (j !== -1 && isSpace(line[j - 1])) j = line.indexOf(marker, j + 1);
  return j;
}

const MARKERS = ['**', '__'];

/**
 * `line.replace(/(\*\*|__)(?=\S)([^]*?\S)\1/g, '$2')`. A marker with no closer after one
 * start has none after any later start either, so each marker's failed search happens once.
 */
export function stripStrong(line: string): string {
  let out = '';
  let copied = 0;
  let pos = 0;
  // Per marker: its next place at or after pos (-1 before the first search), and whether
  // it has no more closers.
  const markers = MARKERS.map((marker) => ({ marker, next: -1, dead: false }));
  while (pos < line.length) {
    for (const m of markers) {
      if (m.dead || m.next >= pos) continue;
      m.next = line.indexOf(m.marker, pos);
      if (m.next === -1) m.dead = true;
    }
    const starts = markers.filter((m) => !m.dead);
    if (starts.length === 0) break;
    const first = starts.reduce((a, b) => (a.next <= b.next ? a : b));
    const i = first.next;
    if (i + 2 < line.length && !isSpace(line.charAt(i + 2))) {
      const j = strongCloser(line, first.marker, i + 3);
      if (j !== -1) {
        out += line.slice(copied, i) + line.slice(i + 2, j);
        copied = pos = j + 2;
        continue;
      }
      first.dead = true;
    }
    pos = i + 1;
  }
  return out + line.slice(copied);
}

/** End of the run of `ch` that starts at `from`. */
function runEnd(line: string, from: number, ch: string): number {
  let end = from;
  while (end < line.length && line[end] === ch) end += 1;
  return end;
}

/**
 * `line.replace(/`+([^`]+)`+/g, (_, text) => replace(text))`: an opening run of backticks,
 * text, and the whole closing run. Matches only ever start at the first backtick of a run.
 */
function replaceCodeSpans(line: string, replace: (text: string) => string): string {
  let out = '';
  let pos = 0;
  for (let open = line.indexOf('`'); open !== -1; open = line.indexOf('`', pos)) {
    const text = runEnd(line, open, '`');
    const close = line.indexOf('`', text);
    if (text === line.length || close === -1) break;
    out += line.slice(pos, open) + replace(line.slice(text, close));
    pos = runEnd(line, close, '`');
  }
  return out + line.slice(pos);
}

/** `line.replace(/`+([^`]+)`+/g, '$1')`: code spans' backticks go, their text stays. */
export const stripCodeSpans = (line: string): string => replaceCodeSpans(line, (text) => text);

// Private-use characters: a held code span is HOLD + its number + HOLD_END.
const HOLD = '\uE000';
const HOLD_END = '\uE001';
const HELD = /\uE000(\d+)\uE001/g;

/**
 * Code spans out of the way of the other inline rules: their text is literal (`<key>` is no
 * tag, `*` no emphasis), so each is replaced by a numbered placeholder and `restore` puts
 * the text back, without its backticks, once the rules have run. Undefined when the line
 * holds the placeholder characters itself (then the caller strips code spans as before).
 */
export function holdCodeSpans(line: string): { line: string; restore: (out: string) => string } | undefined {
  if (line.includes(HOLD)) return undefined;
  const held: string[] = [];
  const out = replaceCodeSpans(line, (text) => `${HOLD}${held.push(text) - 1}${HOLD_END}`);
  return { line: out, restore: (s) => s.replace(HELD, (_, i: string) => held[Number(i)] ?? '') };
}

const AUTOLINK_OPEN = /<https?:\/\//y;
const URL_END = /[>\s]/g;

/**
 * `line.replace(/<(https?:\/\/[^>\s]+)>/g, '$1')`. When the URL runs into white space or the
 * end, every start before that point fails the same way, so the scan skips past it.
 */
export function unwrapAutolinks(line: string): string {
  let out = '';
  let copied = 0;
  let pos = 0;
  for (let i = line.indexOf('<'); i !== -1; i = line.indexOf('<', pos)) {
    AUTOLINK_OPEN.lastIndex = i;
    if (!AUTOLINK_OPEN.test(line)) {
      pos = i + 1;
      continue;
    }
    const url = AUTOLINK_OPEN.lastIndex;
    URL_END.lastIndex = url;
    const end = URL_END.exec(line)?.index ?? line.length;
    if (end < line.length && line[end] === '>' && end > url) {
      out += line.slice(copied, i) + line.slice(i + 1, end);
      copied = pos = end + 1;
    } else {
      pos = end === url ? i + 1 : end;
    }
  }
  return out + line.slice(copied);
}

const TAG_OPEN = /<\/?[a-z]/iy;

/** `line.replace(/<\/?[a-z][^>]*>/gi, '')`: a tag ends at the first `>`; with none left, nothing more matches. */
export function stripHtmlTags(line: string): string {
  let out = '';
  let copied = 0;
  let pos = 0;
  for (let i = line.indexOf('<'); i !== -1; i = line.indexOf('<', pos)) {
    TAG_OPEN.lastIndex = i;
    if (!TAG_OPEN.test(line)) {
      pos = i + 1;
      continue;
    }
    const end = line.indexOf('>', TAG_OPEN.lastIndex);
    if (end === -1) break;
    out += line.slice(copied, i);
    copied = pos = end + 1;
  }
  return out + line.slice(copied);
}

const RULE_CELL = /^:?-{2,}:?$/;

/**
 * `/^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line)`: a table's header rule,
 * cells of dashes (with alignment colons) between optional outer pipes.
 */
export function isTableRule(line: string): boolean {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|')) body = body.slice(0, -1);
  return body.split('|').every((cell) => RULE_CELL.test(cell.trim()));
}
