const HAS_BODY = /<body[\s>]/i;
const HEAD_BLOCK = /<head[\s>][\s\S]*?<\/head\s*>/i;
const SHELL_TAGS = /<!doctype[^>]*>|<\/?html\b[^>]*>|<\/?head\b[^>]*>/gi;
const LEADING_HEAD_ELEMENT = /^\s*(?:<title\b[^>]*>[\s\S]*?<\/title\s*>|<(?:meta|link|base)\b[^>]*>)/i;

/**
 * Gives a body-less document its `<html><head><body>` shell. linkedom does not run the
 * HTML tree builder's implied-tag rules, so for `<title>x</title><p>…</p>` it returns an
 * empty `document.body` (and for bare text a null documentElement), which would leave
 * nothing to extract. Leading title/meta/link/base elements go to the head.
 */
export function ensureBodyShell(html: string): string {
  if (HAS_BODY.test(html)) return html;
  const headBlock = HEAD_BLOCK.exec(html)?.[0] ?? '';
  let rest = html.replace(headBlock, '').replace(SHELL_TAGS, '');
  let head = headBlock.replace(SHELL_TAGS, '');
  for (let m = LEADING_HEAD_ELEMENT.exec(rest); m !== null; m = LEADING_HEAD_ELEMENT.exec(rest)) {
    head += m[0];
    rest = rest.slice(m[0].length);
  }
  return `<!DOCTYPE html><html><head>${head}</head><body>${rest}</body></html>`;
}
