import { forwardFinder } from '../text-scan.ts';

const HAS_BODY = /<body[\s>]/i;
const HEAD_OPEN = /<head[\s>]/i;
const HEAD_CLOSE = /<\/head\s*>/gi;
/** Starts of the tags `ensureBodyShell` replaces; each runs to its first `>`. */
const SHELL_TAG_START = /<!doctype|<\/?html\b|<\/?head\b/gi;
const LEADING_HEAD_ELEMENT = /^\s*(?:<title\b[^>]*>[\s\S]*?<\/title\s*>|<(?:meta|link|base)\b[^>]*>)/i;

/**
 * The first `<head …>…</head>`. Only the first opening can matter: when it has no closing
 * tag after it, no later one does. (A regex with `[\s\S]*?` re-reads the rest of the page
 * from every unclosed `<head>`, which is quadratic.)
 */
function headBlock(html: string): string {
  const open = HEAD_OPEN.exec(html);
  if (open === null) return '';
  const close = new RegExp(HEAD_CLOSE.source, HEAD_CLOSE.flags);
  close.lastIndex = open.index + open[0].length;
  const end = close.exec(html);
  return end === null ? '' : html.slice(open.index, end.index + end[0].length);
}

/**
 * Same result as `replace(/<!doctype[^>]*>|<\/?html\b[^>]*>|<\/?head\b[^>]*>/gi, '')`, but the
 * search for each tag's `>` remembers its answer, so thousands of unclosed `<html` stay linear.
 */
function removeShellTags(html: string): string {
  const start = new RegExp(SHELL_TAG_START.source, SHELL_TAG_START.flags);
  const nextGt = forwardFinder((from) => html.indexOf('>', from));
  const kept: string[] = [];
  let copied = 0;
  for (let m = start.exec(html); m !== null; m = start.exec(html)) {
    const gt = nextGt(m.index + m[0].length);
    if (gt < 0) break;
    kept.push(html.slice(copied, m.index));
    copied = gt + 1;
    start.lastIndex = copied;
  }
  kept.push(html.slice(copied));
  return kept.join('');
}

/**
 * Gives a body-less document its `<html><head><body>` shell. linkedom does not run the
 * HTML tree builder's implied-tag rules, so for `<title>x</title><p>…</p>` it returns an
 * empty `document.body` (and for bare text a null documentElement), which would leave
 * nothing to extract. Leading title/meta/link/base elements go to the head.
 */
export function ensureBodyShell(html: string): string {
  if (HAS_BODY.test(html)) return html;
  const block = headBlock(html);
  let rest = removeShellTags(html.replace(block, ''));
  let head = removeShellTags(block);
  for (let m = LEADING_HEAD_ELEMENT.exec(rest); m !== null; m = LEADING_HEAD_ELEMENT.exec(rest)) {
    head += m[0];
    rest = rest.slice(m[0].length);
  }
  return `<!DOCTYPE html><html><head>${head}</head><body>${rest}</body></html>`;
}
