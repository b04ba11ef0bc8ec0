import {
  holdCodeSpans,
  isTableRule,
  stripCodeSpans,
  stripHtmlTags,
  stripStrong,
  unwrapAutolinks,
} from './inline-markup.ts';

/**
 * One markdown block as snippet text: what `extra_snippets` shows, like a search engine's
 * snippets, without markdown syntax. Link text stays, destinations and images go, list
 * items and table rows become one line joined with "; ". Code keeps its characters: inline
 * rules never touch a code span (`<key>` stays), which is why this is Scout's one
 * markdown-to-text (the starter corpus's sections use it too).
 */

const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,}).*$/gm;
const IMAGE = /!\[(?:[^[\]\\]|\\.)*\]\((?:[^()\\]|\\.|\([^()]*\))*\)/g;
const LINK = /\[((?:[^[\]\\]|\\.)*)\]\((?:[^()\\]|\\.|\([^()]*\))*\)/g;
const LINE_PREFIX = /^\s{0,3}(?:#{1,6}\s+|>\s?|(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?)+/;
// Content stops at the next `*`, so every start scans a disjoint stretch: linear as it is.
const EMPHASIS = /(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g;
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!|>~<])/g;

// Each rule runs only when its trigger character is on the line: most lines of an article
// are plain prose, and the rules are the bulk of the cost. Rules whose regex would retry
// from every start (page text is hostile input) are scanners in inline-markup.ts.
function inline(line: string): string {
  let out = line;
  if (out.includes('[')) out = out.replace(IMAGE, '').replace(LINK, '$1');
  // Code span text is literal: held aside while the other rules run.
  const held = out.includes('`') ? holdCodeSpans(out) : undefined;
  if (held) out = held.line;
  if (out.includes('<')) out = stripHtmlTags(unwrapAutolinks(out));
  if (out.includes('*') || out.includes('__')) out = stripStrong(out).replace(EMPHASIS, '$1$2');
  if (!held && out.includes('`')) out = stripCodeSpans(out);
  if (out.includes('\\')) out = out.replace(ESCAPE, '$1');
  return held ? held.restore(out) : out;
}

const STOPS = '.!?:;,';

// A fenced block's lines joined with "; ", fence lines and blank lines dropped. Same as
// replacing each run of white space that holds a line break with "; ", without the retries
// a regex for that makes along a long run of spaces.
function codeLines(block: string): string {
  return block
    .replace(FENCE_LINE, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
}

function tableRow(line: string): string {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim())
    .filter((cell) => cell !== '')
    .join(', ');
}

/**
 * The block's lines with each soft-wrapped line joined to the one it continues (markdown
 * reads them as one line): a code span, link or emphasis broken across lines is still
 * recognised. A table row, list item, heading or quote line starts a line of its own; table
 * rules are dropped.
 */
function softLines(block: string): string[] {
  const lines: string[] = [];
  // Parts of the line being built, joined once: += and then reading it would flatten the
  // string at every line of a long paragraph.
  let parts: string[] = [];
  let joinable = false;
  for (const raw of block.split('\n')) {
    if (raw.includes('--') && isTableRule(raw)) continue;
    const isRow = raw.trimStart().startsWith('|');
    if (joinable && !isRow && !LINE_PREFIX.test(raw)) {
      parts.push(raw);
      continue;
    }
    if (parts.length > 0) lines.push(parts.join(' '));
    parts = [raw];
    joinable = !isRow;
  }
  if (parts.length > 0) lines.push(parts.join(' '));
  return lines;
}

/** Plain text of one block; empty when it held only images or markup. */
export function blockToPlainText(block: string, fenced = false): string {
  if (fenced) return codeLines(block);
  let out = '';
  // The last line added, not `out`: reading a character of a string built with += flattens
  // it, once per line (quadratic on a list of 50,000 items).
  let previous = '';
  for (const raw of softLines(block)) {
    const isRow = raw.trimStart().startsWith('|');
    const isItem = LINE_PREFIX.test(raw);
    let line = inline(isItem ? raw.replace(LINE_PREFIX, '') : raw);
    if (isRow) line = tableRow(line);
    line = line.replace(/\s+/g, ' ').trim();
    if (line === '') continue;
    if (out === '') out = line;
    else out += (isRow || isItem) && !STOPS.includes(previous.charAt(previous.length - 1)) ? `; ${line}` : ` ${line}`;
    previous = line;
  }
  return out;
}
