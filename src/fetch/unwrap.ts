import { getDomain, getDomainWithoutSuffix } from 'tldts';

/**
 * Local unwrapping of known redirect wrappers (search-result click trackers, mail link
 * scanners): the target is read out of the wrapper URL itself, without a request to the
 * wrapper. Wrappers that nest (a SafeLinks around a Google link) are unwrapped repeatedly.
 * Works on URL strings: Proofpoint v3 embeds the target in the path, where `new URL()` would
 * already have normalised it.
 */

export interface UnwrapResult {
  url: string;
  unwrapped: boolean;
}

type Unwrapper = (url: URL, raw: string) => string | null | undefined;

const MAX_DEPTH = 5;

const param = (url: URL, ...names: string[]): string | null => {
  for (const n of names) {
    const v = url.searchParams.get(n);
    if (v !== null && v !== '') return v;
  }
  return null;
};

const safeDecodeURIComponent = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

const google: Unwrapper = (url) =>
  getDomainWithoutSuffix(url.hostname) === 'google' && url.pathname === '/url' ? param(url, 'q', 'url') : null;

// Bing: u = "a1" + base64url(target).
const bing: Unwrapper = (url) => {
  if (getDomain(url.hostname) !== 'bing.com' || url.pathname !== '/ck/a') return null;
  const u = param(url, 'u');
  return u?.startsWith('a1') === true ? Buffer.from(u.slice(2), 'base64url').toString('utf8') : null;
};

const duckduckgo: Unwrapper = (url) =>
  getDomain(url.hostname) === 'duckduckgo.com' && /^\/l\/?$/.test(url.pathname) ? param(url, 'uddg') : null;

const facebook: Unwrapper = (url) => {
  const domain = getDomain(url.hostname);
  return (domain === 'facebook.com' || domain === 'messenger.com') && url.pathname === '/l.php'
    ? param(url, 'u')
    : null;
};

const linkedin: Unwrapper = (url) =>
  getDomain(url.hostname) === 'linkedin.com' && /^\/safety\/go\/?$/.test(url.pathname) ? param(url, 'url') : null;

const safeLinks: Unwrapper = (url) =>
  /\.safelinks\.protection\.(outlook\.com|office365\.us)$/.test(url.hostname) ? param(url, 'url') : null;

// Proofpoint URL Defense v1: u is the percent-encoded target; v2: "-" stands for "%" and "_" for "/".
const proofpointV1V2: Unwrapper = (url) => {
  if (url.hostname !== 'urldefense.proofpoint.com') return null;
  const u = param(url, 'u');
  if (u === null) return null;
  if (url.pathname === '/v1/url') return u;
  if (url.pathname === '/v2/url') return safeDecodeURIComponent(u.replace(/-/g, '%').replace(/_/g, '/'));
  return null;
};

// Proofpoint v3: /v3/__<target with some characters replaced by "*">__;<base64url of those characters>!!…
// "*" takes the next replacement character; "**" + X takes a run of them, X coding the length
// (A=2, B=3, …, as in Proofpoint's published decoder).
const RUN_LENGTH_CODES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const proofpointV3: Unwrapper = (url, raw) => {
  if (url.hostname !== 'urldefense.com') return null;
  // indexOf, not a lazy regex: `/\/v3\/__(.+?)__;(.*?)!/` retried from every "/v3/__" and
  // was quadratic on long hostile links (a crawled page may hold any).
  const start = raw.indexOf('/v3/__');
  if (start < 0) return null;
  const from = start + '/v3/__'.length;
  const end = raw.indexOf('__;', from + 1);
  if (end < 0) return null;
  const bang = raw.indexOf('!', end + 3);
  if (bang < 0) return null;
  const target = safeDecodeURIComponent(raw.slice(from, end));
  if (target === null) return null;
  const replacements = Array.from(Buffer.from(raw.slice(end + 3, bang), 'base64url').toString('utf8'));
  let next = 0;
  return target.replace(/\*(\*.)?/g, (token) => {
    const count = token === '*' ? 1 : RUN_LENGTH_CODES.indexOf(token.charAt(2)) + 2;
    const run = replacements.slice(next, next + count).join('');
    next += count;
    return run;
  });
};

const UNWRAPPERS: Unwrapper[] = [google, bing, duckduckgo, facebook, linkedin, safeLinks, proofpointV1V2, proofpointV3];

const httpUrl = (s: string): URL | null => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
};

/** One level of unwrapping: the wrapped target, or null when `raw` is no known wrapper. */
export function unwrapOnce(raw: string): string | null {
  const url = httpUrl(raw);
  if (url === null) return null;
  for (const unwrap of UNWRAPPERS) {
    const target = unwrap(url, raw);
    if (target !== null && target !== undefined && httpUrl(target) !== null) return target;
  }
  return null;
}

/** Unwraps `raw` until it is no known wrapper (at most a few levels). */
export function unwrapUrl(raw: string): UnwrapResult {
  let url = raw;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const inner = unwrapOnce(url);
    if (inner === null) break;
    url = inner;
  }
  return { url, unwrapped: url !== raw };
}
