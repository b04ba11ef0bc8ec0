import { parse } from 'tldts';

/**
 * What `--same-site` means: two URLs are on the same site when their hosts share a
 * registrable domain (public suffix + one label, from the Public Suffix List), so
 * `docs.example.com` and `www.example.com` are one site. Private suffixes count as public
 * ones here (`alice.github.io` and `bob.github.io` are different sites): they are separate
 * owners. Hosts without a registrable domain (IP addresses, `localhost`, single labels)
 * match only the exact same host; the port never matters.
 */
export function siteOf(url: string): string | undefined {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (hostname === '') return undefined;
  const parsed = parse(hostname, { allowPrivateDomains: true });
  if (parsed.isIp || parsed.domain === null || parsed.domain === '') return hostname;
  return parsed.domain;
}

export function sameSite(a: string, b: string): boolean {
  const site = siteOf(a);
  return site !== undefined && site === siteOf(b);
}
