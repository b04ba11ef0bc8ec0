import type { Dispatcher } from 'undici';
import { ProviderError, type ProviderFilter } from './provider.ts';

/** Small helpers shared by the provider adapters: reading untrusted JSON, building URLs. */

/** What every HTTP adapter may be given besides its URL and key. */
export interface ProviderDeps {
  /** undici dispatcher (connection pool) for the upstream calls; tests and benchmarks pass one. */
  dispatcher?: Dispatcher;
  /** Clock that anchors relative ages such as "2 days ago". */
  now?: () => Date;
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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

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
