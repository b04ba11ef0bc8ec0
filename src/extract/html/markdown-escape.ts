/**
 * Turndown's escaping of text nodes, except for underscores inside a word. Turndown
 * escapes every `_`, so `snake_case`, `SCOUT_DATA_DIR` and `max_results` (table cells of
 * settings and API references are full of them) came out as `snake\_case`. CommonMark
 * never opens or closes emphasis with an underscore run that has a letter or digit on
 * both sides, so such a run is literal as it is. Every other run is escaped as before
 * (`_private`, `_emphasis_`, `__init__`'s outer runs): a neighbour in another text node is
 * unknown here, so a run at either end of the text is escaped too.
 */

// Turndown 7's list (lib/turndown's markdownEscapes), with the underscore rule below.
const ESCAPES: [RegExp, string][] = [
  [/\\/g, '\\\\'],
  [/\*/g, '\\*'],
  [/^-/g, '\\-'],
  [/^\+ /g, '\\+ '],
  [/^(=+)/g, '\\$1'],
  [/^(#{1,6}) /g, '\\$1 '],
  [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'],
  [/\[/g, '\\['],
  [/\]/g, '\\]'],
  [/^>/g, '\\>'],
  [/^(\d+)\. /g, '$1\\. '],
];

// A run of underscores with what is on either side (a letter, digit or mark, or nothing).
const UNDERSCORES = /([\p{L}\p{N}\p{M}]?)(_+)(?=([\p{L}\p{N}\p{M}]?))/gu;

function escapeUnderscores(text: string): string {
  return text.replace(UNDERSCORES, (_m, before: string, run: string, after: string) =>
    before !== '' && after !== '' ? before + run : before + run.replace(/_/g, '\\_'),
  );
}

/** A text node as markdown that reads back as the same text. */
export function escapeMarkdownText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of ESCAPES) out = out.replace(pattern, replacement);
  return out.includes('_') ? escapeUnderscores(out) : out;
}
