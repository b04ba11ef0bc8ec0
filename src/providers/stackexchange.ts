import { str, url, type Parser } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { dateFromUnixSeconds } from '../domain/date-normalize.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import { freshnessStartDate } from '../search/search-request.ts';
import {
  asRecord,
  clamp,
  honoursOf,
  malformed,
  plainText,
  text,
  withParams,
  resultList,
  type KeylessProviderOptions,
  withOptionalFields,
} from './adapter-kit.ts';
import { requestJson } from './http-json.ts';
import { pacingOf, pacingSettings } from './pacing-settings.ts';
import { ProviderError, type ProviderFailureKind, type SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Stack Exchange API 2.3, /search/excerpts (api.stackexchange.com/docs/excerpt-search): the
 * questions and answers of one site (Stack Overflow by default) matching a query, each with
 * an excerpt. Keyless: 300 requests a day per IP; an app key (SCOUT_STACKEXCHANGE_KEY, not
 * a secret by the API's own terms, sent as `key=`) raises that to 10,000. Native: count
 * (pagesize, 1..100), dates (fromdate/todate on creation_date). Not native: domains,
 * country; Scout filters and over-fetches.
 *
 * The API's quirks, from its docs (error-handling, throttle):
 * - every answer is gzip-compressed (requestJson decompresses);
 * - every error is HTTP 400 with `{"error_id","error_name","error_message"}` in the body;
 *   `throttle_violation` (502) is a rate limit, which for a used-up quota says "more
 *   requests available in N seconds";
 * - a successful answer may carry `backoff` (seconds): the method must not be called again
 *   before they pass. This provider then refuses calls itself ('rate_limited', no request
 *   sent) until they have, and likewise after `quota_remaining: 0` or a throttle violation.
 */

const NAME = 'stackexchange';
const HONOURS = honoursOf('dates');
const MAX_RESULTS = 100;
const DAY_S = 86_400;
/**
 * How long a used-up daily quota holds calls off when the API gave no time: then one call
 * goes through, and a throttle violation's "available in N seconds" sets the next hold.
 */
const QUOTA_HOLD_S = 3_600;

/** Sites that do not live under stackexchange.com. */
const SITE_HOSTS: Record<string, string> = {
  stackoverflow: 'stackoverflow.com',
  serverfault: 'serverfault.com',
  superuser: 'superuser.com',
  askubuntu: 'askubuntu.com',
  mathoverflow: 'mathoverflow.net',
  stackapps: 'stackapps.com',
};

/**
 * The host of a site given as the API's `site` parameter: a domain (stackoverflow.com,
 * unix.stackexchange.com) as is; a short name by the table above, else
 * `<name>.stackexchange.com`; a dotted short name (pt.stackoverflow, meta.serverfault,
 * meta.unix) keeps its first label in front of its base's host.
 */
export function stackExchangeHost(site: string): string {
  if (/\.(com|net|org)$/.test(site)) return site;
  const dot = site.indexOf('.');
  const prefix = dot < 0 ? '' : site.slice(0, dot + 1);
  const base = dot < 0 ? site : site.slice(dot + 1);
  return prefix + (SITE_HOSTS[base] ?? `${base}.stackexchange.com`);
}

/** A site as the `site` parameter takes it: a short name (stackoverflow, unix, pt.stackoverflow) or a domain. */
export const stackExchangeSite: Parser<string> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (/^[a-z0-9]+([.-][a-z0-9]+)*$/.test(v)) return v;
  throw new Error(
    `must be a Stack Exchange site such as stackoverflow, serverfault, unix or math.stackexchange.com, got "${raw}"`,
  );
};

const unixSeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/** Scout's query → the API's parameters; dates as unix seconds, the end day included. */
export function stackExchangeParams(
  q: SearchQuery,
  site: string,
  now: Date,
  key?: string,
): Record<string, string | number | undefined> {
  const start = q.startDate ?? (q.freshness ? freshnessStartDate(q.freshness, now) : undefined);
  return {
    order: 'desc',
    sort: 'relevance',
    q: q.query,
    site,
    pagesize: clamp(q.maxResults, 1, MAX_RESULTS),
    fromdate: start === undefined ? undefined : unixSeconds(start),
    todate: q.endDate === undefined ? undefined : unixSeconds(q.endDate) + DAY_S - 1,
    key: key || undefined,
  };
}

const positiveInt = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;

function toResult(item: unknown, host: string): ProviderResult | undefined {
  const r = asRecord(item);
  if (!r) return undefined;
  const answer = r.item_type === 'answer' ? positiveInt(r.answer_id) : undefined;
  const question = positiveInt(r.question_id);
  const path = answer !== undefined ? `a/${answer}` : question !== undefined ? `questions/${question}` : undefined;
  const title = plainText(r.title);
  if (path === undefined || !title) return undefined;
  // An answer's title is its question's, as the site shows it.
  const out: ProviderResult = { title, url: `https://${host}/${path}`, content: plainText(r.excerpt) };
  return withOptionalFields(out, { publishedDate: dateFromUnixSeconds(r.creation_date) });
}

/** What a successful answer says about calling again: its `backoff` and used-up quota. */
export interface StackExchangeThrottle {
  /** Seconds before the method may be called again, when the API asked for a pause. */
  backoff?: number;
  /** True when `quota_remaining` is 0: the next call would be refused. */
  quotaUsedUp: boolean;
}

export function stackExchangeThrottle(body: unknown): StackExchangeThrottle {
  const root = asRecord(body);
  const backoff = positiveInt(root?.backoff);
  return { ...(backoff !== undefined ? { backoff } : {}), quotaUsedUp: root?.quota_remaining === 0 };
}

/** The API's wrapper → results, links built on the site's host (the excerpts carry none). */
export function parseStackExchangeResponse(body: unknown, site: string): ProviderResult[] {
  const root = asRecord(body);
  if (!root) throw malformed(NAME, 'not a JSON object');
  if (root.error_id !== undefined)
    throw apiError(String(root.error_id), text(root.error_name), text(root.error_message));
  const host = stackExchangeHost(site);
  return resultList(NAME, root.items, 'items', (x) => toResult(x, host));
}

const AUTH_ERRORS = new Set(['401', '402', '403', '405', '406']);

/**
 * The API's error (id, name, message) as a failure. The name is the API's fixed code, safe
 * to show; the message goes to the logs only, except a throttle's wait, read by the caller.
 */
function apiError(id: string, name: string | undefined, message: string | undefined, status?: number): ProviderError {
  const code = name && /^[a-z_]{1,40}$/.test(name) ? name : `error ${/^\d{1,4}$/.test(id) ? id : '?'}`;
  const failure: ProviderFailureKind =
    id === '502'
      ? 'rate_limited'
      : AUTH_ERRORS.has(id) || (id === '400' && /^key\b/.test(message ?? ''))
        ? 'auth'
        : 'http';
  return new ProviderError(NAME, failure, `API error (${code})`, {
    ...(status !== undefined ? { status } : {}),
    ...(message ? { detail: message.slice(0, 300) } : {}),
  });
}

/**
 * A 400 carries the API's error in its body, which requestJson keeps (folded, cut to 300
 * characters) as the ProviderError's detail: its fields are read back from there. The
 * wrapper lists error_id first, so a cut body still names the error.
 */
function fromHttpError(e: ProviderError): ProviderError {
  const body = e.detail ?? '';
  const id = /"error_id"\s*:\s*(\d+)/.exec(body)?.[1];
  if (e.status !== 400 || id === undefined) return e;
  const name = /"error_name"\s*:\s*"([a-z_]+)"/.exec(body)?.[1];
  const message = /"error_message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(body)?.[1];
  return apiError(id, name, message, 400);
}

/** Seconds a throttle violation says to wait ("more requests available in 82574 seconds"). */
export function throttleWait(detail: string | undefined): number | undefined {
  const n = /available in (\d{1,9}) seconds?/.exec(detail ?? '')?.[1];
  return n === undefined ? undefined : Number(n);
}

/** The search method's endpoint (full URL), the site and an optional app key. */
export interface StackExchangeProviderOptions extends KeylessProviderOptions {
  /** The `site` parameter: a short name or a domain. */
  site: string;
  /** Optional app key (raises the daily quota); not a secret, but kept out of logs anyway. */
  key?: string;
}

export function createStackExchangeProvider(opts: StackExchangeProviderOptions): SearchProvider {
  const now = opts.now ?? (() => new Date());
  /** No call before this instant (ms), and why: the API's backoff, quota or throttle. */
  let holdUntil = 0;
  let holdReason = '';
  const hold = (seconds: number, reason: string): void => {
    const until = now().getTime() + Math.min(seconds, DAY_S) * 1000;
    if (until > holdUntil) {
      holdUntil = until;
      holdReason = reason;
    }
  };
  return {
    name: NAME,
    honours: HONOURS,
    ...(opts.pacing ? { pacing: opts.pacing } : {}),
    async search(query, signal) {
      const at = now();
      const left = Math.ceil((holdUntil - at.getTime()) / 1000);
      if (left > 0) throw new ProviderError(NAME, 'rate_limited', `${holdReason} (${left} s left)`);
      let body: unknown;
      try {
        body = await requestJson({
          provider: NAME,
          url: withParams(opts.url, stackExchangeParams(query, opts.site, at, opts.key)),
          signal,
          dispatcher: opts.dispatcher,
          userAgent: opts.userAgent,
          ...(opts.key ? { secrets: [opts.key] } : {}),
        });
      } catch (e) {
        if (!(e instanceof ProviderError)) throw e;
        const err = fromHttpError(e);
        if (err.failure === 'rate_limited') hold(throttleWait(err.detail) ?? 0, 'throttled by the API');
        throw err;
      }
      const throttle = stackExchangeThrottle(body);
      // This answer is good: the pause applies to the next calls.
      if (throttle.backoff !== undefined) hold(throttle.backoff, 'backoff requested by the API');
      if (throttle.quotaUsedUp) hold(QUOTA_HOLD_S, 'daily quota used up');
      return parseStackExchangeResponse(body, opts.site).slice(0, clamp(query.maxResults, 1, MAX_RESULTS));
    },
  };
}

export const stackExchangeProvider = describeProvider({
  name: NAME,
  settings: {
    stackExchangeUrl: s(
      'SCOUT_STACKEXCHANGE_URL',
      url,
      'https://api.stackexchange.com/2.3/search/excerpts',
      'Stack Exchange API search endpoint (full URL).',
    ),
    stackExchangeSite: s(
      'SCOUT_STACKEXCHANGE_SITE',
      stackExchangeSite,
      'stackoverflow',
      'Stack Exchange site searched: its API name (stackoverflow, serverfault, superuser, askubuntu, unix, math, …) or its domain.',
    ),
    stackExchangeKey: s(
      'SCOUT_STACKEXCHANGE_KEY',
      str,
      '',
      'Optional Stack Apps app key (not a secret; sent as key=): raises the daily quota from 300 to 10,000 requests per IP.',
    ),
    // The quota is per day (300 keyless), so the pace only spreads bursts out; the API asks
    // for at most 30 requests a second per IP and for its backoff to be honoured.
    ...pacingSettings('stackExchange', NAME, { perSecond: 1, inFlight: 1 }),
  },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => {
    const key = c.stackExchangeKey.trim();
    return createStackExchangeProvider({
      ...deps,
      url: c.stackExchangeUrl,
      site: c.stackExchangeSite,
      ...(key ? { key } : {}),
      pacing: pacingOf(c, 'stackExchange'),
    });
  },
});
