import type { Config } from './settings.ts';
import { isWideCidr, WIDE_BELOW } from './wide-cidrs.ts';

type FetchAllow = Pick<Config, 'fetchAllowCidrs' | 'fetchAllowWideCidrs'>;

const wide = (c: FetchAllow): string[] => c.fetchAllowCidrs.filter(isWideCidr);

/**
 * Why the start must stop, or undefined. A wide range is far more likely a typo or a
 * copy-pasted 0.0.0.0/0 than a need, and it lets every API key fetch from the whole
 * internal network, so it takes a second, explicit setting.
 */
export function fetchAllowRefusal(c: FetchAllow): string | undefined {
  const ranges = wide(c);
  if (ranges.length === 0 || c.fetchAllowWideCidrs) return undefined;
  return (
    `SCOUT_FETCH_ALLOW_CIDRS has ranges wider than an IPv4 /${WIDE_BELOW.ipv4} or an IPv6 /${WIDE_BELOW.ipv6} ` +
    `(IPv6 forms of IPv4 addresses count by the IPv4 range they reach): ${ranges.join(', ')}; ` +
    'list narrower ranges, or set SCOUT_FETCH_ALLOW_WIDE_CIDRS=true to accept them'
  );
}

/** The one-line start-up warning while any range is open; undefined when none is. */
export function fetchAllowWarning(c: FetchAllow): string | undefined {
  if (c.fetchAllowCidrs.length === 0) return undefined;
  const acknowledged = wide(c);
  return (
    `SCOUT_FETCH_ALLOW_CIDRS lets fetch reach ${c.fetchAllowCidrs.join(', ')} although private or reserved ranges are refused otherwise; ` +
    `every API key can reach hosts there` +
    (acknowledged.length > 0 ? ` (SCOUT_FETCH_ALLOW_WIDE_CIDRS=true acknowledges ${acknowledged.join(', ')})` : '')
  );
}
