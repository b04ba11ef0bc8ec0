import { stripInertMarkup } from './inert-markup.ts';
import { collapseSpace, forwardFinder } from '../text-scan.ts';

/**
 * What the block-page and app-shell detectors look at, read from the raw HTML string
 * rather than a DOM so the same reading serves a 2xx page after extraction and the small
 * body prefix of a 403/429/503 answer (src/fetch/status-error.ts), which is never parsed.
 * Every scan here is linear: the markup is page-controlled.
 */
export interface PageSignals {
  /** The raw markup, scripts included: vendor markers live in scripts and attributes. */
  markup: string;
  /** `<title>` text, entities decoded, whitespace collapsed. */
  title: string;
  /** Visible text of the body (no scripts, styles, noscript fallbacks, comments), collapsed. */
  text: string;
  /** The body's markup, inert parts stripped, that `text` is read from (contentText reads it again when asked). */
  body: string;
}

/** The title is in the head: it is looked for in this much of the stripped markup. */
const TITLE_SCAN = 64 * 1024;
const MAX_TITLE = 300;

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  ndash: '–',
  mdash: '—',
  bull: '•',
};

/** Numeric entities and the few named ones interstitials use (Akamai writes `Reference&#32;&#35;18&#46;…`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** A `<` opens a tag only before a letter, `/`, `!` or `?` (as the HTML tokenizer reads it). */
const TAG_START = /[a-zA-Z/!?]/;

/** Text between tags; a tag never closed ends the text, as it swallows the rest for a browser too. */
function textBetweenTags(html: string): string {
  const parts: string[] = [];
  const nextGt = forwardFinder((from) => html.indexOf('>', from));
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    if (lt < 0) break;
    if (!TAG_START.test(html[lt + 1] ?? '')) {
      parts.push(html.slice(at, lt + 1));
      at = lt + 1;
      continue;
    }
    parts.push(html.slice(at, lt), ' ');
    const gt = nextGt(lt + 1);
    if (gt < 0) return parts.join('');
    at = gt + 1;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

function titleOf(stripped: string): string {
  const head = stripped.slice(0, TITLE_SCAN);
  const lower = head.toLowerCase();
  const open = lower.indexOf('<title');
  if (open < 0) return '';
  const gt = lower.indexOf('>', open);
  const close = gt < 0 ? -1 : lower.indexOf('</title', gt);
  if (close < 0) return '';
  return collapseSpace(decodeEntities(head.slice(gt + 1, close))).slice(0, MAX_TITLE);
}

/** Where the body's content starts: after `<body …>`, else after `</head>`, else the start. */
function bodyStart(stripped: string): number {
  const body = /<body\b/i.exec(stripped);
  const head = body === null ? /<\/head\s*>/i.exec(stripped) : null;
  const at = body?.index ?? head?.index ?? -1;
  if (at < 0) return 0;
  const gt = stripped.indexOf('>', at);
  return gt < 0 ? stripped.length : gt + 1;
}

// The name ends at white space, `/` or `>`: `<nav-bar>` and `<header-x>` are custom elements.
const LANDMARK_OPEN = /<(header|nav|aside|footer)(?=[\s/>])[^>]{0,2000}>/gi;

/**
 * The markup without its header, nav, aside and footer elements: the site's chrome, which a
 * server renders around an app's empty mount point. Each landmark ends at its own closing tag
 * (nested ones of the same name counted); one never closed is kept, with all that follows it
 * (it would hold the rest for a browser too). One pass, each character read a bounded number
 * of times: the markup is page-controlled.
 */
export function withoutLandmarks(html: string): string {
  const parts: string[] = [];
  const lower = html.toLowerCase();
  let at = 0;
  LANDMARK_OPEN.lastIndex = 0;
  for (let open = LANDMARK_OPEN.exec(html); open !== null; open = LANDMARK_OPEN.exec(html)) {
    const name = (open[1] ?? '').toLowerCase();
    const end = closingTag(lower, name, open.index + open[0].length);
    if (end < 0) break;
    parts.push(html.slice(at, open.index), ' ');
    at = end;
    LANDMARK_OPEN.lastIndex = end;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/** Where the element `name` opened before `from` ends (after its `</name>`), nested ones counted; -1 when never. */
function closingTag(lower: string, name: string, from: number): number {
  let depth = 1;
  let at = from;
  while (depth > 0) {
    const next = lower.indexOf(name, at);
    if (next < 0) return -1;
    const before = lower[next - 1];
    const after = lower[next + name.length] ?? '';
    at = next + name.length;
    if (!/[\s/>]/.test(after)) continue;
    if (before === '<') depth += 1;
    else if (before === '/' && lower[next - 2] === '<') depth -= 1;
  }
  const gt = lower.indexOf('>', at);
  return gt < 0 ? lower.length : gt + 1;
}

/** Visible text, entities decoded, white space collapsed. */
const textOf = (html: string): string => collapseSpace(decodeEntities(textBetweenTags(html)));

/**
 * The body's text without what its header, navigation, aside and footer landmarks hold: read
 * only for a page that may be an app shell, not for every page whose signals are read.
 */
export const contentText = (p: PageSignals): string => textOf(withoutLandmarks(p.body));

export function pageSignals(markup: string): PageSignals {
  // As the extractor reads the page: a page served in noscript is not an empty shell.
  const stripped = stripInertMarkup(markup, { noscriptFallback: true });
  let rest = stripped.slice(bodyStart(stripped));
  // A page without <body> or <head> may still carry its title inline: it is not body text.
  if (rest === stripped) rest = rest.replace(/<title\b[^>]{0,200}>[^<]{0,1000}<\/title\s*>/i, ' ');
  return { markup, title: titleOf(stripped), text: textOf(rest), body: rest };
}
