import type { Dispatcher } from 'undici';
import type { ProviderResult } from '../search/search-types.ts';
import { ProviderError, type Pacing, type ProviderFilter } from './provider.ts';

/** Small helpers shared by the provider adapters: reading untrusted JSON, building URLs. */

/** What every HTTP adapter may be given besides its URL and key. */
export interface ProviderDeps {
  /** undici dispatcher (connection pool) for the upstream calls; tests and benchmarks pass one. */
  dispatcher?: Dispatcher;
  /** Clock that anchors relative ages such as "2 days ago". */
  now?: () => Date;
  /** The User-Agent sent upstream (user-agent.ts, with the operator's SCOUT_CONTACT). */
  userAgent?: string;
}

/** What an engine used without a key is given: its endpoint and, usually, its pacing. */
export interface KeylessProviderOptions extends ProviderDeps {
  /** Full endpoint URL (SCOUT_<ENGINE>_URL). */
  url: string;
  /** How often the registry may call it (pacing-settings.ts); unpaced when absent. */
  pacing?: Pacing;
}

export interface HttpProviderOptions extends ProviderDeps {
  /** Full endpoint URL (SCOUT_<PROVIDER>_URL). */
  url: string;
  apiKey: string;
}

export const honoursOf = (...filters: ProviderFilter[]): ReadonlySet<ProviderFilter> => new Set(filters);

export const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

export const asArray = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

/** A non-empty string, or undefined. */
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export const clamp = (n: number, min: number, max: number): number => Math.min(max, Math.max(min, Math.trunc(n)));

// Named entities the engines put in snippets and titles (Stack Exchange ends its excerpts
// with &hellip;, typographic quotes and dashes are common); numeric ones are decoded in general.
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
  times: '×',
  euro: '€',
};

function decodeEntity(whole: string, body: string): string {
  if (body[0] === '#') {
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  return ENTITIES[body.toLowerCase()] ?? whole;
}

/**
 * Snippet text as an agent should read it: highlight tags (`<strong>`) removed, common HTML
 * entities decoded, runs of white space folded.
 */
export function plainText(v: unknown): string {
  if (typeof v !== 'string') return '';
  return v
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/&(#x?[0-9a-f]{1,6}|[a-z]{2,6});/gi, decodeEntity)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The configured endpoint with `params` added to its query string (existing ones kept). */
export function withParams(base: string, params: Record<string, string | number | undefined>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}

/** The answer parsed as JSON but not in the documented shape. */
export const malformed = (provider: string, what: string): ProviderError =>
  new ProviderError(provider, 'malformed', `malformed response (${what})`);

/**
 * The result list of a provider's answer: `list` must be an array (else the answer is
 * malformed, naming `what`); entries `toResult` cannot read are skipped.
 */
export function resultList(
  provider: string,
  list: unknown,
  what: string,
  toResult: (entry: unknown) => ProviderResult | undefined,
): ProviderResult[] {
  const entries = asArray(list);
  if (!entries) throw malformed(provider, `${what} is not a list`);
  return entries.map(toResult).filter((x): x is ProviderResult => x !== undefined);
}

/** Sets the optional fields every adapter reads the same way (date already normalised). */
export function withOptionalFields(
  out: ProviderResult,
  fields: { publishedDate?: string | undefined; favicon?: unknown; score?: unknown },
): ProviderResult {
  if (fields.publishedDate) out.publishedDate = fields.publishedDate;
  const favicon = text(fields.favicon);
  if (favicon) out.favicon = favicon;
  if (typeof fields.score === 'number') out.score = fields.score;
  return out;
}
