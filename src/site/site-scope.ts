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

/**
 * The hosts a site map of `start` stays on (POST /v1/map, `include_subdomains`): the start's
 * host name, with or without a leading `www.` (example.com and www.example.com are one site to
 * every reader), and with `includeSubdomains` every host name under it as well
 * (docs.example.com and a.b.example.com for a start on example.com or www.example.com). An IP
 * address is its own only host. The scheme and port never matter, as for sameSite.
 */
export function hostScope(start: string, includeSubdomains: boolean): (url: string) => boolean {
  const startHost = new URL(start).hostname.toLowerCase();
  const ip = parse(startHost).isIp === true;
  const base = !ip && startHost.startsWith('www.') ? startHost.slice(4) : startHost;
  return (url) => {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return false;
    }
    if (host === base || (!ip && host === `www.${base}`)) return true;
    return includeSubdomains && !ip && host.endsWith(`.${base}`);
  };
}
