/** About how long a summary runs, in characters. */
export const SUMMARY_MAX = 1000;

/** Markdown blocks that are not prose: headings, fences, tables, quotes' markers, images, rules, lists' markers. */
const NOT_PROSE = /^(?:#{1,6}\s|```|~~~|\||!\[|-{3,}$|\*{3,}$|_{3,}$)/;

/** Inline markdown → its text: links and emphasis keep their words, images go. */
const plain = (block: string): string =>
  block
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
    .replace(/^>\s?/gm, '')
    .replace(/\s+/g, ' ')
    .trim();

/** `text` cut at a word boundary near `max`, with an ellipsis when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * The Firecrawl shape's `summary`, extractive: Scout writes no text with a model. It is the
 * page's own description (its meta description) when it has one, else its first prose
 * paragraphs, about SUMMARY_MAX characters at most.
 */
export function extractiveSummary(description: string | undefined, markdown: string): string {
  if (description !== undefined && description.trim() !== '') return cut(description.trim(), SUMMARY_MAX);
  const parts: string[] = [];
  let length = 0;
  for (const block of markdown.split(/\n\s*\n/)) {
    const trimmed = block.trim();
    if (trimmed === '' || NOT_PROSE.test(trimmed)) continue;
    const text = plain(trimmed);
    if (text === '') continue;
    parts.push(text);
    length += text.length + 1;
    if (length >= SUMMARY_MAX) break;
  }
  return cut(parts.join(' '), SUMMARY_MAX);
}
