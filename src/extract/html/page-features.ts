import { nonSpaceChars } from './text-stats.ts';

/**
 * What a page says it is and how its text is laid out, as numbers: the inputs of the learned
 * choice between Readability's article and the whole cleaned body (content-choice.ts). Every
 * feature is general (schema.org and Open Graph types, text and link density, paragraph,
 * list, heading and repeated-item structure, the URL's shape); none names a site.
 */

/** schema.org and Open Graph types, grouped by what they say of the page. */
const TYPE_GROUPS: [string, RegExp][] = [
  [
    'article',
    /^(?:article|newsarticle|blogposting|reportagenewsarticle|analysisnewsarticle|techarticle|scholarlyarticle|report|liveblogposting|opinionnewsarticle|posting|socialmediaposting)$/,
  ],
  ['product', /^(?:product|productgroup|offer|aggregateoffer|individualproduct|vehicle|car|book|softwareapplication)$/],
  ['list', /^(?:itemlist|collectionpage|searchresultspage|offercatalog|breadcrumblist)$/],
  ['faq', /^(?:faqpage|question|answer)$/],
  ['thread', /^(?:discussionforumposting|qapage|comment)$/],
  ['business', /^(?:organization|localbusiness|service|corporation|professionalservice|store|restaurant|place)$/],
  ['docs', /^(?:howto|apireference|course|learningresource)$/],
];

const JSON_LD_TYPE = /"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g;
const QUOTED = /"([^"]*)"/g;
/** schema.org types are read from this much of each JSON-LD block: types sit near the top. */
const JSON_LD_SCAN = 64 * 1024;

/** The page's declared types (lower case, no vocabulary prefix), read before scripts are pruned. */
export function declaredTypes(doc: Document): Set<string> {
  const types = new Set<string>();
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    const text = (script.textContent ?? '').slice(0, JSON_LD_SCAN);
    for (const m of text.matchAll(JSON_LD_TYPE)) {
      for (const q of (m[1] ?? '').matchAll(QUOTED)) types.add(lastSegment(q[1] ?? ''));
    }
  }
  for (const el of Array.from(doc.querySelectorAll('[itemtype]'))) {
    for (const t of (el.getAttribute('itemtype') ?? '').split(/\s+/)) if (t !== '') types.add(lastSegment(t));
  }
  const og = doc.querySelector('meta[property="og:type"]')?.getAttribute('content');
  if (og) types.add(`og:${og.trim().toLowerCase()}`);
  return types;
}

const lastSegment = (type: string): string => (type.split(/[/#:]/).pop() ?? '').toLowerCase();

function typeFlags(types: ReadonlySet<string>): number[] {
  const flags = TYPE_GROUPS.map(([, re]) => ([...types].some((t) => re.test(t)) ? 1 : 0));
  const og = [...types].find((t) => t.startsWith('og:')) ?? '';
  return [...flags, og === 'og:article' ? 1 : 0, /product/.test(og) ? 1 : 0, og === 'og:website' ? 1 : 0];
}

/** How a tree's text is laid out, measured in one walk (textContent per element would be quadratic). */
export interface Layout {
  /** textLength of the tree: its non-space characters. */
  chars: number;
  linkChars: number;
  /** Text inside paragraphs and inside list items (outermost counted once: each character once). */
  pChars: number;
  liChars: number;
  headings: number;
  tables: number;
  code: number;
  images: number;
  /** Paragraphs long enough to be prose, and Readability's readerable score over them (uncapped). */
  paragraphs: number;
  readerable: number;
  /** The largest run of like siblings (same tag and class) under one parent, and the share of the text it holds. */
  repeatCount: number;
  repeatShare: number;
}

const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const MIN_PARAGRAPH = 140;

export function measureLayout(root: Element): Layout {
  const out: Layout = {
    chars: 0,
    linkChars: 0,
    pChars: 0,
    liChars: 0,
    headings: 0,
    tables: 0,
    code: 0,
    images: 0,
    paragraphs: 0,
    readerable: 0,
    repeatCount: 0,
    repeatShare: 0,
  };
  let repeatChars = 0;
  const walk = (el: Element, inLink: boolean, inP: boolean, inLi: boolean): number => {
    const tag = el.tagName;
    if (HEADINGS.has(tag)) out.headings += 1;
    else if (tag === 'TABLE') out.tables += 1;
    else if (tag === 'PRE') out.code += 1;
    else if (tag === 'IMG') out.images += 1;
    const link = inLink || tag === 'A';
    const p = inP || tag === 'P';
    const li = inLi || tag === 'LI';
    let chars = 0;
    // Like siblings, grouped by tag and class, with their text. (Read once: linkedom counts
    // the children again on every read of childElementCount, quadratic on a wide parent.)
    const grouped = el.childElementCount >= 3;
    let groups: Map<string, [number, number]> | undefined;
    for (let node = el.firstChild; node !== null; node = node.nextSibling) {
      // Text and CDATA, as textContent has them: `chars` is textLength's count of the tree.
      if (node.nodeType === 3 || node.nodeType === 4) {
        const n = nonSpaceChars((node as CharacterData).data);
        chars += n;
        out.chars += n;
        if (link) out.linkChars += n;
        if (p) out.pChars += n;
        if (li) out.liChars += n;
      } else if (node.nodeType === 1) {
        const child = node as Element;
        const n = walk(child, link, p, li);
        chars += n;
        if (grouped) {
          groups ??= new Map();
          const key = `${child.tagName} ${child.getAttribute('class') ?? ''}`;
          const g = groups.get(key);
          if (g === undefined) groups.set(key, [1, n]);
          else {
            g[0] += 1;
            g[1] += n;
          }
        }
      }
    }
    if (groups !== undefined) {
      for (const [count, text] of groups.values()) {
        if (count < 3 || text === 0 || count < out.repeatCount) continue;
        if (count > out.repeatCount || text > repeatChars) {
          out.repeatCount = count;
          repeatChars = text;
        }
      }
    }
    if ((tag === 'P' || tag === 'PRE') && chars >= MIN_PARAGRAPH) {
      out.paragraphs += 1;
      out.readerable += Math.sqrt(chars - MIN_PARAGRAPH);
    }
    return chars;
  };
  walk(root, false, false, false);
  out.repeatShare = out.chars === 0 ? 0 : Math.min(1, repeatChars / out.chars);
  return out;
}

function urlShape(pageUrl: string): number[] {
  let path = '';
  try {
    path = new URL(pageUrl).pathname;
  } catch {
    path = '';
  }
  const segments = path.split('/').filter((s) => s !== '');
  const last = segments[segments.length - 1] ?? '';
  const slugWords = last.split(/[-_]/).filter((w) => /[a-z]{2,}/i.test(w)).length;
  const dated = /(?:^|\/)(?:19|20)\d{2}\/\d{1,2}(?:\/|$)|\d{4}-\d{2}-\d{2}/.test(path) ? 1 : 0;
  return [Math.min(segments.length, 8), Math.min(slugWords, 12), dated, /\d{4,}/.test(last) ? 1 : 0];
}

const log = (n: number): number => Math.log1p(n);

export const FEATURE_NAMES = [
  'body_chars',
  'article_chars',
  'article_share',
  'article_found',
  'body_link_density',
  'article_link_density',
  'body_paragraphs',
  'body_readerable',
  'article_paragraphs',
  'body_p_share',
  'article_p_share',
  'body_li_share',
  'article_li_share',
  'body_headings',
  'article_headings',
  'body_tables',
  'body_code',
  'body_images',
  'repeat_count',
  'repeat_share',
  'article_repeat_count',
  'article_repeat_share',
  ...TYPE_GROUPS.map(([name]) => `type_${name}`),
  'og_article',
  'og_product',
  'og_website',
  'url_depth',
  'url_slug_words',
  'url_dated',
  'url_number',
] as const;

/**
 * The features of a page from the layout of its pruned body (measured before Readability)
 * and of what Readability picked from it (null when nothing), and its declared types.
 */
export function pageFeatures(b: Layout, a: Layout | null, types: ReadonlySet<string>, pageUrl: string): number[] {
  const share = (n: number, of: number): number => (of === 0 ? 0 : Math.min(1, n / of));
  return [
    log(b.chars),
    log(a?.chars ?? 0),
    share(a?.chars ?? 0, b.chars),
    a === null ? 0 : 1,
    share(b.linkChars, b.chars),
    a === null ? 0 : share(a.linkChars, a.chars),
    log(b.paragraphs),
    log(b.readerable),
    log(a?.paragraphs ?? 0),
    share(b.pChars, b.chars),
    a === null ? 0 : share(a.pChars, a.chars),
    share(b.liChars, b.chars),
    a === null ? 0 : share(a.liChars, a.chars),
    log(b.headings),
    log(a?.headings ?? 0),
    log(b.tables),
    log(b.code),
    log(b.images),
    log(b.repeatCount),
    b.repeatShare,
    log(a?.repeatCount ?? 0),
    a?.repeatShare ?? 0,
    ...typeFlags(types),
    ...urlShape(pageUrl),
  ];
}
