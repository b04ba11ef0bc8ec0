import { DomainError } from '../domain/errors.ts';
import type { FetchOutcome } from '../fetch/fetch-service.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import type { FirecrawlDocument } from '../schemas/firecrawl.ts';
import { extractiveSummary } from './firecrawl-summary.ts';
import { jsonObject, requiredUrl } from './json-body.ts';

/** The formats Scout serves, in Firecrawl's names. */
export const SERVED_FORMATS = ['markdown', 'rawHtml', 'links', 'summary'] as const;
export type ServedFormat = (typeof SERVED_FORMATS)[number];

/** What a scrape (or each page of a search's scrapeOptions) asks of Scout. */
export interface ScrapePlan {
  formats: Set<ServedFormat>;
  /** Firecrawl's `timeout`, ms, when sent: the page must be read within it. */
  timeoutMs?: number;
  /** rawHtml kept at most, in characters (a search's pages: up to 20 of them in one answer). */
  rawMaxChars?: number;
}

/** Markdown kept per page: Scout's ceiling, so a page comes whole up to it (a cut page says so). */
export const SCRAPE_MAX_CHARS = FETCH_LIMITS.maxChars.max;

const SERVED_LIST = 'markdown, rawHtml, links and summary';

/** Why each format Scout does not serve is refused, said to the caller. */
export const REFUSED_FORMATS: Record<string, string> = {
  html: 'Scout keeps the main content as markdown, not as HTML; ask for markdown, or rawHtml for the page as fetched',
  screenshot: 'Scout reads pages without a browser and takes no screenshots',
  json: 'Scout runs no model to extract structured data; ask for markdown and extract it yourself',
  changeTracking: 'Scout keeps no earlier copy of a page to compare with',
  branding: 'Scout reads pages without a browser and reads no branding',
  images: 'Scout lists no images of a page',
  attributes: 'Scout keeps no selectors of a page',
  product: 'Scout runs no model to extract products',
  menu: 'Scout runs no model to extract menus',
  audio: 'Scout reads no audio',
  video: 'Scout reads no video',
  question: 'Scout runs no model to answer questions',
  highlights: 'Scout runs no model to pick highlights',
  query: 'Scout runs no model to answer queries',
};

const invalid = (message: string) => new DomainError('invalid', message);

/** A field a client sent as null counts as not sent. */
const absent = (v: unknown): boolean => v === undefined || v === null;

/** A format as the SDK sends it, a name or `{"type": name}`, → its name. */
export function formatName(f: unknown): string {
  if (typeof f === 'string') return f;
  if (typeof f === 'object' && f !== null && typeof (f as { type?: unknown }).type === 'string')
    return (f as { type: string }).type;
  throw invalid('formats must be a list of format names ("markdown") or objects ({"type": "markdown"})');
}

/** `formats` → the served formats; a format Scout cannot honour is a 400 that names it. */
export function scrapeFormats(v: unknown, fallback: ServedFormat[]): Set<ServedFormat> {
  if (absent(v)) return new Set(fallback);
  if (!Array.isArray(v)) throw invalid('formats must be a list');
  const out = new Set<ServedFormat>();
  for (const f of v) {
    const name = formatName(f);
    if ((SERVED_FORMATS as readonly string[]).includes(name)) {
      out.add(name as ServedFormat);
      continue;
    }
    const why = REFUSED_FORMATS[name];
    throw invalid(`format "${name.slice(0, 40)}" is not served${why ? `: ${why}` : ''}. Scout serves ${SERVED_LIST}`);
  }
  return out;
}

const nonEmpty = (v: unknown): boolean =>
  !absent(v) &&
  v !== false &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/**
 * Options whose silent dropping would hand back a page other than the one asked for: each is
 * refused when set. Every other option (maxAge, mobile, waitFor, proxy, blockAds, parsers,
 * skipTlsVerification, …) is ignored: docs/compat.md says why each changes nothing that matters.
 */
const REFUSED_OPTIONS: Record<string, string> = {
  actions: 'Scout reads pages without a browser and runs no actions',
  headers: 'Scout fetches pages with its own headers and sends none of the caller',
  includeTags: 'Scout picks the main content itself and takes no tag selection',
  excludeTags: 'Scout picks the main content itself and takes no tag selection',
  location: 'Scout fetches pages from its own network, in no chosen country or language',
  redactPII: 'Scout redacts nothing from pages',
  lockdown: 'Scout keeps no cache of pages and always reads them from their site',
};

function timeout(v: unknown, name: string): number | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw invalid(`${name} must be a positive number of milliseconds`);
  return v;
}

/** The scrape options of a body (a scrape's own, or a search's scrapeOptions); unknown fields are ignored. */
export function scrapePlan(o: Record<string, unknown>, fallback: ServedFormat[], where = ''): ScrapePlan {
  for (const [name, why] of Object.entries(REFUSED_OPTIONS))
    if (nonEmpty(o[name])) throw invalid(`${where}${name} is not served: ${why}`);
  if (o.onlyMainContent === false)
    throw invalid(
      `${where}onlyMainContent false is not served: Scout's markdown is the page's main content; ask for rawHtml for the whole page as fetched`,
    );
  const plan: ScrapePlan = { formats: scrapeFormats(o.formats, fallback) };
  const ms = timeout(o.timeout, `${where}timeout`);
  if (ms !== undefined) plan.timeoutMs = ms;
  return plan;
}

/** A scrape body → its URL and plan. */
export function scrapeRequest(body: unknown): { url: string; plan: ScrapePlan } {
  const b = jsonObject(body);
  return { url: requiredUrl(b), plan: scrapePlan(b, ['markdown']) };
}

/** A page Scout read → the Firecrawl document with the formats asked for and its metadata. */
export function scrapeDocument(plan: ScrapePlan, page: FetchOutcome): FirecrawlDocument {
  const doc: FirecrawlDocument = { metadata: scrapeMetadata(page) };
  const warnings: string[] = [];
  if (plan.formats.has('markdown')) doc.markdown = page.content;
  if (plan.formats.has('summary')) doc.summary = extractiveSummary(page.facts?.description, page.content);
  if (plan.formats.has('rawHtml')) {
    const max = plan.rawMaxChars;
    if (page.raw === undefined) warnings.push('rawHtml is absent: the page is a PDF, which has no text as fetched');
    else if (max !== undefined && page.raw.length > max) {
      doc.rawHtml = page.raw.slice(0, max);
      warnings.push(`rawHtml was cut at ${max} characters`);
    } else doc.rawHtml = page.raw;
  }
  if (plan.formats.has('links')) doc.links = page.facts?.links ?? [];
  if (page.truncated)
    warnings.push(
      `the page was cut: its markdown at ${SCRAPE_MAX_CHARS} characters, or its body at Scout's size limits`,
    );
  if (warnings.length > 0) doc.warning = warnings.join('; ');
  return doc;
}

function scrapeMetadata(page: FetchOutcome): FirecrawlDocument['metadata'] {
  const meta: FirecrawlDocument['metadata'] = {
    title: page.title,
    sourceURL: page.url,
    url: page.finalUrl,
    statusCode: page.status ?? 200,
    // Every page is read from its site when asked: nothing comes from a cache.
    cacheState: 'miss',
  };
  if (page.facts?.description !== undefined) meta.description = page.facts.description;
  if (page.facts?.language !== undefined) meta.language = page.facts.language;
  if (page.meta.content_type !== null) meta.contentType = page.meta.content_type;
  return meta;
}
