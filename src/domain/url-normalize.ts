/**
 * URL clean-up for search results and the key that merges duplicates (docs/providers.md
 * "One normalised list"). Pure functions; `new URL()` already lower-cases scheme and host,
 * converts IDN hosts to punycode and drops the default port of http and https.
 */

/** Query parameters that only track the click, never select content. */
const TRACKING_PARAMS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'igshid',
  'mc_eid',
  'mc_cid',
  'ref_src',
  'ref_url',
  '_hsenc',
  '_hsmi',
  '__hstc',
  '__hssc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  'vero_id',
  'vero_conv',
  'oly_anon_id',
  'oly_enc_id',
  'wickedid',
  '_ga',
  '_gl',
  'srsltid',
  'spm',
]);

export const isTrackingParam = (name: string): boolean => {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || TRACKING_PARAMS.has(n);
};

function decodeName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Keeps the query's own encoding: only whole `name=value` pairs are dropped. */
function stripTracking(search: string): string {
  if (search.length <= 1) return '';
  const kept = search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !isTrackingParam(decodeName(pair)));
  return kept.length ? `?${kept.join('&')}` : '';
}

/** Removes a text-fragment directive (`#:~:text=…`, added by search engines to highlight). */
function stripTextFragment(hash: string): string {
  const i = hash.indexOf(':~:');
  const h = i >= 0 ? hash.slice(0, i) : hash;
  return h === '#' ? '' : h;
}

function parseHttp(raw: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') return undefined;
  return u;
}

/**
 * The URL Scout returns for a result: http(s) only, host in lower case (punycode), default
 * port dropped, tracking parameters and text-fragment directives removed; everything else
 * as the provider gave it. undefined when it is not an absolute http(s) URL.
 */
export function cleanUrl(raw: string): string | undefined {
  const u = parseHttp(raw);
  if (!u) return undefined;
  u.search = stripTracking(u.search);
  u.hash = stripTextFragment(u.hash);
  u.username = '';
  u.password = '';
  return u.toString();
}

/** `path` less its trailing slashes. A loop: `/\/+$/` retries from every slash of a long run (quadratic). */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  return path.slice(0, end);
}

/**
 * The identity of a result for dedupe: `http://WWW.Example.com:80/a/?b=2&a=1#top` and
 * `https://example.com/a?a=1&b=2` are the same page. Scheme, `www.`, fragment, trailing
 * slash, tracking parameters and parameter order are ignored. undefined for non-http(s).
 */
export function dedupeKey(raw: string): string | undefined {
  const u = parseHttp(raw);
  if (!u) return undefined;
  const host = u.hostname.startsWith('www.') ? u.hostname.slice(4) : u.hostname;
  const port = u.port ? `:${u.port}` : '';
  const path = u.pathname.length > 1 ? withoutTrailingSlashes(u.pathname) : '';
  const params = stripTracking(u.search).slice(1).split('&').filter(Boolean).sort();
  return `${host}${port}${path}${params.length ? `?${params.join('&')}` : ''}`;
}
