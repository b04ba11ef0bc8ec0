/**
 * One markdown block as snippet text: what `extra_snippets` shows, like a search engine's
 * snippets, without markdown syntax. Link text stays, destinations and images go, list
 * items and table rows become one line joined with "; ". Code keeps its characters
 * (remove-markdown strips `*` and `_` inside code, which mangles it, hence this file).
 */

const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,}).*$/gm;
const IMAGE = /!\[(?:[^[\]\\]|\\.)*\]\((?:[^()\\]|\\.|\([^()]*\))*\)/g;
const LINK = /\[((?:[^[\]\\]|\\.)*)\]\((?:[^()\\]|\\.|\([^()]*\))*\)/g;
const AUTOLINK = /<(https?:\/\/[^>\s]+)>/g;
const HTML_TAG = /<\/?[a-z][^>]*>/gi;
const LINE_PREFIX = /^\s{0,3}(?:#{1,6}\s+|>\s?|(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?)+/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const STRONG = /(\*\*|__)(?=\S)([^]*?\S)\1/g;
const EMPHASIS = /(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g;
const CODE_SPAN = /`+([^`]+)`+/g;
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!|>~<])/g;

// Each rule runs only when its trigger character is on the line: most lines of an article
// are plain prose, and the regexes are the bulk of the cost.
function inline(line: string): string {
  let out = line;
  if (out.includes('[')) out = out.replace(IMAGE, '').replace(LINK, '$1');
  if (out.includes('<')) out = out.replace(AUTOLINK, '$1').replace(HTML_TAG, '');
  if (out.includes('*') || out.includes('__')) out = out.replace(STRONG, '$2').replace(EMPHASIS, '$1$2');
  if (out.includes('`')) out = out.replace(CODE_SPAN, '$1');
  if (out.includes('\\')) out = out.replace(ESCAPE, '$1');
  return out;
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

/** Plain text of one block; empty when it held only images or markup. */
export function blockToPlainText(block: string, fenced = false): string {
  if (fenced) return block.replace(FENCE_LINE, '').trim().replace(/\s*\n\s*/g, '; ');
  let out = '';
  for (const raw of block.split('\n')) {
    if (raw.includes('--') && TABLE_RULE.test(raw)) continue;
    const isRow = raw.trimStart().startsWith('|');
    const isItem = LINE_PREFIX.test(raw);
    let line = inline(isItem ? raw.replace(LINE_PREFIX, '') : raw);
    if (isRow) line = tableRow(line);
    line = line.replace(/\s+/g, ' ').trim();
    if (line === '') continue;
    if (out === '') out = line;
    else out += (isRow || isItem) && !/[.!?:;,]$/.test(out) ? `; ${line}` : ` ${line}`;
  }
  return out;
}
