import { domainToASCII } from 'node:url';

/**
 * Domain rules shared by search filters, the local index and sponsored matching
 * (docs/api.md "Domain filters"): an entry is normalised (scheme, path, port, `www.`, case,
 * IDN to punycode removed or folded) and matches itself and every subdomain.
 */

/** Host of a URL without `www.`, lower case, punycode. The `domain` field of a result. */
export function displayDomain(url: string): string {
  try {
    return stripWww(new URL(url).hostname.toLowerCase());
  } catch {
    return '';
  }
}

const stripWww = (host: string): string => (host.startsWith('www.') ? host.slice(4) : host);

/**
 * Normalises one include/exclude entry, or returns undefined when it cannot be a domain.
 * `https://WWW.Example.com:443/path` → `example.com`; `bücher.de` → `xn--bcher-kva.de`.
 */
export function normalizeDomainEntry(entry: string): string | undefined {
  let s = entry.trim().toLowerCase();
  if (s === '') return undefined;
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\/\//, '');
  s = s.split(/[/?#]/, 1)[0] ?? '';
  s = s.replace(/^[^@]*@/, '');
  s = s.replace(/:\d*$/, '');
  s = s.replace(/^\*\./, '');
  // Leading and trailing dots trimmed with a loop: `/^\.+|\.+$/g` is quadratic on long runs.
  let a = 0;
  let b = s.length;
  while (a < b && s[a] === '.') a++;
  while (b > a && s[b - 1] === '.') b--;
  s = s.slice(a, b);
  if (s === '') return undefined;
  const ascii = domainToASCII(s);
  if (ascii === '' || !/^[a-z0-9.-]+$/.test(ascii) || ascii.includes('..')) return undefined;
  return stripWww(ascii);
}

/** True when `host` (already lower case, without www.) is `domain` or one of its subdomains. */
export function hostMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * The domain filter: exclude wins over include; an empty include list admits everything.
 */
export function domainAllowed(host: string, include: readonly string[], exclude: readonly string[]): boolean {
  if (exclude.some((d) => hostMatches(host, d))) return false;
  return include.length === 0 || include.some((d) => hostMatches(host, d));
}
