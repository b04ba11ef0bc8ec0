/** A fence longer than any backtick run inside `body`, so the block cannot end early. */
export function fence(body: string): string {
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(longest + 1);
}

export function fenced(body: string, language: string): string {
  const f = fence(body);
  return `${f}${language}\n${body.replace(/\n+$/, '')}\n${f}`;
}

/** JSON pretty-printed in a json fence; text that does not parse goes in a plain fence as is. */
export function jsonToMarkdown(text: string): string {
  try {
    return fenced(JSON.stringify(JSON.parse(text), null, 2), 'json');
  } catch {
    return fenced(text, '');
  }
}

/** Title of a markdown text: its first ATX or setext level-1/2 heading. */
export function markdownTitle(text: string): string {
  const atx = /^ {0,3}#{1,2}[ \t]+(.+?)[ \t#]*$/m.exec(text);
  if (atx) return atx[1].trim();
  const setext = /^([^\n]+)\n {0,3}(?:=+|-+)[ \t]*$/m.exec(text);
  return setext ? setext[1].trim() : '';
}

/** Line endings normalised; text otherwise passes through untouched. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
