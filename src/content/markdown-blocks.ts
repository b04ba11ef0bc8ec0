import { must } from '../domain/must.ts';
/**
 * The structure content cuts and passages follow: blocks (paragraphs, list runs, tables,
 * headings, whole fenced code blocks) separated by blank lines, and sentence ends inside a
 * block. Everything is offsets into the original text, so a cut is a plain `slice` that keeps
 * the page's own formatting.
 */

export interface Span {
  start: number;
  end: number;
}

export interface Block extends Span {
  /** A fenced code block: cut inside it by lines, and close the fence. */
  fenced: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The marker (``` or ~~~ and longer) of a FENCE match. */
const fenceMarker = (m: RegExpExecArray): string => must(m[1], 'the marker of a fence');

/** Whether `line` closes a fence opened with `marker`. */
const closes = (line: string, marker: string): boolean => {
  const m = FENCE.exec(line);
  if (m === null) return false;
  const close = fenceMarker(m);
  return close[0] === marker[0] && close.length >= marker.length && line.trim() === close;
};

/** Blocks of `markdown` in page order; a blank line inside a fenced code block is not a break. */
export function splitBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let start = -1;
  let fence: string | null = null;
  let fenced = false;
  let pos = 0;
  while (pos <= markdown.length) {
    const nl = markdown.indexOf('\n', pos);
    const lineEnd = nl === -1 ? markdown.length : nl;
    const line = markdown.slice(pos, lineEnd);
    if (fence !== null) {
      if (closes(line, fence)) fence = null;
    } else if (line.trim() === '') {
      if (start !== -1) blocks.push({ start, end: trimmedEnd(markdown, pos), fenced });
      start = -1;
    } else {
      if (start === -1) {
        start = pos + (line.length - line.trimStart().length);
        fenced = false;
      }
      const open = FENCE.exec(line);
      if (open !== null) {
        fence = fenceMarker(open);
        fenced = true;
      }
    }
    if (nl === -1) break;
    pos = nl + 1;
  }
  if (start !== -1) blocks.push({ start, end: trimmedEnd(markdown, markdown.length), fenced });
  return blocks;
}

function trimmedEnd(text: string, end: number): number {
  let e = end;
  while (e > 0 && /\s/.test(text.charAt(e - 1))) e -= 1;
  return e;
}

// [text](dest) and ![alt](dest), as in src/fetch/truncate.ts: a sentence never ends inside one.
const LINK =
  /!?\[(?:[^[\]\\]|\\.){0,2000}\]\((?:[^()\s\\]|\\.|\((?:[^()\s\\]|\\.){0,2048}\)){0,4096}(?:\s+"[^"]{0,500}")?\)/g;
// A sentence ends after terminal punctuation (with closing quotes, brackets or emphasis)
// followed by white space, or at a line break (list items, table rows, code lines).
const SENTENCE_END = /[.!?…。！？](?:["'”’)\]*_]*)(?=\s)|(?<=[。！？])|\n/g;

/**
 * End offsets (exclusive, relative to `text`) of the sentences of one block, the last being
 * `text.length`. A fenced block ends sentences at line breaks only.
 */
export function sentenceEnds(text: string, fenced = false): number[] {
  const links: Span[] = [];
  if (!fenced && text.includes('](')) {
    for (const m of text.matchAll(LINK)) links.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  }
  // Links and sentence ends both come in text order: one cursor, not a search per end
  // (a page of many links and many sentences would make that quadratic).
  let k = 0;
  const inLink = (p: number): boolean => {
    let link = links[k];
    while (link !== undefined && link.end <= p) link = links[++k];
    return link !== undefined && link.start < p;
  };
  const ends: number[] = [];
  const pattern = fenced ? /\n/g : SENTENCE_END;
  for (const m of text.matchAll(pattern)) {
    const end = (m.index ?? 0) + (m[0] === '\n' ? 0 : m[0].length);
    if (end > 0 && end < text.length && !inLink(end) && end !== ends[ends.length - 1]) ends.push(end);
  }
  ends.push(text.length);
  return ends;
}

/** The fence marker (``` or ~~~) left open at the end of `text`, or null. */
export function openFence(text: string): string | null {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    if (open === null) {
      const m = FENCE.exec(line);
      if (m !== null) open = fenceMarker(m);
    } else if (closes(line, open)) {
      open = null;
    }
  }
  return open;
}
