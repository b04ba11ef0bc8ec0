import { splitBlocks } from '../content/markdown-blocks.ts';
import { blockToPlainText } from '../content/plain-text.ts';
import { must } from '../domain/must.ts';

/**
 * Cuts a Markdown file into searchable sections: the text before the first `##` heading
 * (titled by the file's `#` heading) and one section per `##` heading, each with the
 * GitHub-style anchor of its heading. Headings inside fenced code blocks are ignored.
 * Section text is plain text (blockToPlainText, block by block), so snippets show no Markdown
 * syntax while code keeps its characters.
 */
export interface MarkdownSection {
  /** `File title — Section heading`, or the file title for the lead section. */
  title: string;
  /** Anchor of the `##` heading, undefined for the lead section. */
  anchor?: string;
  text: string;
}

const FENCE = /^\s{0,3}(```|~~~)/;
const H1 = /^#\s+(.+?)\s*#*\s*$/;
const H2 = /^##\s+(.+?)\s*#*\s*$/;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(heading: string): string {
  return plain(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** Inline Markdown of a heading (`**x**`, `` `y` ``, links) to its text. */
const plain = (md: string): string => blockToPlainText(md);

/**
 * A fenced block opened inside a paragraph or list (no blank line before it, as in a list
 * item's example) would make splitBlocks take the whole block for code, markup and all:
 * a blank line before each fence and after it keeps the code a block of its own.
 */
function fencesApart(lines: string[]): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (FENCE.test(line)) {
      const previous = out.at(-1);
      if (!inFence && previous !== undefined && previous.trim() !== '') out.push('');
      out.push(line);
      if (inFence) out.push('');
      inFence = !inFence;
    } else out.push(line);
  }
  return out;
}

/** Blocks as plain text, separated by a blank line. */
function toText(lines: string[]): string {
  const md = fencesApart(lines).join('\n');
  return splitBlocks(md)
    .map((b) => blockToPlainText(md.slice(b.start, b.end), b.fenced))
    .filter((t) => t !== '')
    .join('\n\n');
}

export function markdownSections(markdown: string, fallbackTitle: string): MarkdownSection[] {
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  let fileTitle: string | undefined;
  // The lines before the first heading, then each heading's.
  let current: { heading?: string; lines: string[] } = { lines: [] };
  const raw = [current];
  let inFence = false;
  for (const line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    const h1 = inFence ? null : H1.exec(line);
    const h2 = inFence ? null : H2.exec(line);
    if (h1 && fileTitle === undefined) fileTitle = plain(must(h1[1], 'the text of an H1 heading'));
    else if (h2) {
      current = { heading: plain(must(h2[1], 'the text of an H2 heading')), lines: [] };
      raw.push(current);
    } else current.lines.push(line);
  }
  const title = fileTitle || fallbackTitle;
  const used = new Map<string, number>();
  const sections: MarkdownSection[] = [];
  for (const r of raw) {
    const text = toText(r.lines);
    if (r.heading === undefined) {
      if (text !== '') sections.push({ title, text });
      continue;
    }
    const anchor = uniqueAnchor(slugify(r.heading) || 'section', used);
    if (text !== '') sections.push({ title: `${title} — ${r.heading}`, anchor, text });
  }
  return sections;
}

/** GitHub numbers repeated anchors: `usage`, `usage-1`, `usage-2`. */
function uniqueAnchor(slug: string, used: Map<string, number>): string {
  const n = used.get(slug);
  used.set(slug, (n ?? -1) + 1);
  return n === undefined ? slug : `${slug}-${n + 1}`;
}
