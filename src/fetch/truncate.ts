import { must } from '../domain/must.ts';
/**
 * Cuts markdown to at most `maxChars` UTF-16 code units (JS string length, the unit of
 * `chars` in the fetch response) at the best boundary available: a paragraph break in the
 * last 30% of the budget, else a sentence or line end in the last half, else a space in the
 * last half, else a hard cut. A cut never splits a surrogate pair and never falls inside a
 * markdown link, image or autolink; a cut inside a fenced code block closes the fence.
 */

export interface TruncateResult {
  content: string;
  truncated: boolean;
}

const PARAGRAPH_FLOOR = 0.7;
const SENTENCE_FLOOR = 0.5;
// Links are looked for this far past the cap, to see one that straddles it.
const LOOKAHEAD = 4096;

// [text](dest "title") and ![alt](dest), one level of nested brackets (an image inside a link)
// and of parentheses in the destination; <https://…> autolinks. Quantifiers are bounded so a
// page full of unclosed "[" stays linear.
const LINK =
  /!?\[(?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.){0,1000}\]){0,2000}\]\((?:[^()\s\\]|\\.|\((?:[^()\s\\]|\\.){0,4096}\)){0,4096}(?:\s+(?:"[^"]{0,1000}"|'[^']{0,1000}'))?\)|<https?:\/\/[^>\s]{1,4096}>/g;
const SENTENCE_END = /[.!?…。！？](?:["'”’)\]*_]*)(?=\s)|\n/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

type Span = [start: number, end: number];

function protectedSpans(text: string, limit: number): Span[] {
  const spans: Span[] = [];
  for (const m of text.slice(0, limit + LOOKAHEAD).matchAll(LINK)) {
    const start = m.index ?? 0;
    if (start >= limit) break;
    spans.push([start, start + m[0].length]);
  }
  return spans;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

function makeSafe(text: string, spans: Span[]): (p: number) => boolean {
  return (p) =>
    p > 0 && !(isHighSurrogate(text.charCodeAt(p - 1)) && p < text.length) && !spans.some(([s, e]) => s < p && p < e);
}

/** Largest safe cut position ≤ `budget` by tier; a hard cut as the last resort. */
function cutPosition(text: string, budget: number): number {
  const safe = makeSafe(text, protectedSpans(text, budget));
  for (let p = text.lastIndexOf('\n\n', budget); p >= budget * PARAGRAPH_FLOOR; p = text.lastIndexOf('\n\n', p - 1)) {
    if (safe(p)) return p;
  }
  const floor = Math.floor(budget * SENTENCE_FLOOR);
  const window = text.slice(floor, budget + 1);
  const ends = [...window.matchAll(SENTENCE_END)].map(
    (m) => floor + (m.index ?? 0) + (m[0] === '\n' ? 0 : m[0].length),
  );
  for (const end of ends.reverse()) if (end <= budget && safe(end)) return end;
  for (let p = budget; p >= floor; p -= 1) if (/\s/.test(text[p] ?? '') && safe(p)) return p;
  for (let p = budget; p > 0; p -= 1) if (safe(p)) return p;
  return 0;
}

/** The fence marker (``` or ~~~, as opened) when `content` ends inside a fenced code block. */
function openFence(content: string): string | null {
  let open: string | null = null;
  for (const line of content.split('\n')) {
    const m = FENCE.exec(line);
    if (m === null) continue;
    const marker = must(m[1], 'the marker of a fence');
    if (open === null) open = marker;
    else if (marker[0] === open[0] && marker.length >= open.length && line.trim() === marker) open = null;
  }
  return open;
}

export function truncateMarkdown(markdown: string, maxChars: number): TruncateResult {
  if (markdown.length <= maxChars) return { content: markdown, truncated: false };
  let content = markdown.slice(0, cutPosition(markdown, maxChars)).trimEnd();
  const fence = openFence(content);
  if (fence !== null) {
    const closing = `\n${fence}`;
    if (content.length + closing.length > maxChars) {
      content = markdown.slice(0, cutPosition(markdown, maxChars - closing.length)).trimEnd();
    }
    content = openFence(content) === null ? content : `${content}${closing}`;
  }
  return { content, truncated: true };
}
