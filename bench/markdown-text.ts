/**
 * Markdown as the plain text an agent reads, for WCXB's scorer (its README: "link targets,
 * image syntax and markup removed"). Both Scout's markdown (atx headings, `-` bullets, `*`
 * emphasis, fenced code, pipe tables) and the baseline's Turndown defaults (setext
 * headings, `*` bullets, `_` emphasis, indented code, `* * *` rules) come out the same way.
 *
 * What the word metric would otherwise miscount, and so what matters most: link targets and
 * image syntax (URLs are words), emphasis underscores (`_` is a word character, so `_word_`
 * is not `word`), escapes (`snake\_case` would be two words) and code-fence info strings
 * (`js`). Heading hashes, `*`, backticks, `~~`, blockquote `>` and table pipes are not word
 * characters, but the `with`/`without` snippets are matched as substrings, so they go too:
 * a pipe becomes a space (it separates cells), the rest vanish. List markers stay, in the
 * reference's own form (lineToText). Markup is only markup when unescaped (Turndown escapes
 * a literal `*`, `|`, a leading `-` or `1.`); code inside fences is kept verbatim, its
 * backslashes included.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/**
 * Images (alt text is an attribute, not page text) and links (their text kept), as
 * extract-metric.ts's stripMarkdown finds them: link text may hold escaped brackets, targets
 * escaped or one level of nested parens. Unlike there, a bracket after an odd run of
 * backslashes is text, not a link's start: else `\[note\] … [a](b)` reads as one link.
 */
const UNESCAPED = String.raw`(?<!(?:^|[^\\])(?:\\\\)*\\)`;
const TARGET = String.raw`\((?:\\.|[^()\\]|\([^()]*\))*\)`;
const IMAGE = new RegExp(String.raw`${UNESCAPED}!\[(?:\\.|[^\]\\])*\]${TARGET}`, 'g');
const LINK = new RegExp(String.raw`${UNESCAPED}\[((?:\\.|[^\]\\])*)\]${TARGET}`, 'g');
/** Thematic breaks (`---`, `* * *`, `___`), setext underlines and table delimiter rows. */
const RULE_LINE = /^ {0,3}(?:([-*_])(?:[ \t]*\1){2,}|=+|\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?)?)[ \t]*$/;
/**
 * Block markers at a line's start: blockquote `>`, a list bullet or number (with a task
 * box), heading hashes. Only `1.` numbers: Turndown writes no other, and escapes `1.` in
 * text, but not `1)`, which a page's text may well start with.
 */
const QUOTE = /^[ \t]*>[ \t]?/;
const BULLET = /^[ \t]*(?:[-*+]|(\d{1,9})\.)(?:[ \t]+\[[ xX]\])?(?:[ \t]+|$)/;
const HEADING = /^[ \t]*#{1,6}(?:[ \t]+|$)/;
/**
 * Inline markup, left to right: an escape (kept as its character), an emphasis underscore
 * run (one without a letter, digit or mark on both sides: inside a word it is text), `*`
 * runs, `~~`, backtick runs, and a cell's pipe.
 */
const INLINE = /\\([!-/:-@[-`{-~])|(?<![\p{L}\p{N}\p{M}])_+|_+(?![\p{L}\p{N}\p{M}])|\*+|~~|`+|\|/gu;

/**
 * One line outside code as text. A list item keeps its marker in the reference's own form:
 * WCXB's reference text writes list items as `- item` and `1. item` (as Trafilatura's text
 * output does), so a bullet becomes `- ` and a number stays (it is a word of the reference).
 */
function lineToText(line: string): string {
  if (RULE_LINE.test(line)) return '';
  let rest = line;
  while (QUOTE.test(rest)) rest = rest.replace(QUOTE, '');
  const bullet = BULLET.exec(rest);
  const marker = bullet === null ? '' : bullet[1] === undefined ? '- ' : `${bullet[1]}. `;
  if (bullet !== null) rest = rest.slice(bullet[0].length);
  return (
    marker +
    rest
      .replace(HEADING, '')
      .replace(INLINE, (m: string, escaped: string | undefined) => escaped ?? (m === '|' ? ' ' : ''))
  );
}

function proseToText(lines: string[]): string[] {
  if (lines.length === 0) return [];
  return lines.join('\n').replace(IMAGE, ' ').replace(LINK, '$1').split('\n').map(lineToText);
}

/** Plain text of `markdown`: markup, link targets and images removed, code kept. */
export function markdownToText(markdown: string): string {
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r\n?|\n/)) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker === undefined) {
        prose.push(line);
        continue;
      }
      // A fence opens: its line (and its info string, `js`) is markup.
      out.push(...proseToText(prose));
      prose = [];
      fence = marker;
      continue;
    }
    const closes = marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length;
    if (closes && line.trim() === marker) fence = null;
    else out.push(line);
  }
  out.push(...proseToText(prose));
  return out.join('\n');
}
