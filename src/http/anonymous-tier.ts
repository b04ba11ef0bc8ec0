import ipaddr from 'ipaddr.js';
import { anonymousCaller } from '../domain/anonymous-caller.ts';
import { addressGroup } from './address-group.ts';

/** Who may send a request without a key, and as which caller (docs/compat.md, "Keyless clients"). */
export interface AnonymousTier {
  /** The caller id of a keyless request from `ip` (`anon:<address group>`), or undefined: that client needs a key (401). */
  callerOf(ip: string): string | undefined;
}

export interface AnonymousTierOptions {
  /** CIDRs whose clients may go keyless (as cidrList normalised them); empty: every address. */
  cidrs: readonly string[];
  /** IPv6 clients are one caller per prefix of this many bits. */
  ipv6Prefix: number;
}

/** The address as the ranges are matched against it: IPv4-mapped IPv6 is IPv4. */
function parse(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    const a = ipaddr.parse(ip);
    return a instanceof ipaddr.IPv6 && a.isIPv4MappedAddress() ? a.toIPv4Address() : a;
  } catch {
    return undefined;
  }
}

/** The tier over `request.ip` (the socket's address, or the client a trusted proxy names: SCOUT_TRUSTED_PROXIES). */
export function createAnonymousTier(o: AnonymousTierOptions): AnonymousTier {
  const ranges = o.cidrs.map((c) => ipaddr.parseCIDR(c));
  const inRanges = (ip: string): boolean => {
    if (ranges.length === 0) return true;
    const a = parse(ip);
    if (a === undefined) return false;
    return ranges.some(([net, bits]) => {
      if (a.kind() === net.kind()) return a.match(net, bits);
      // An IPv4 client against an IPv6 range (::ffff:10.0.0.0/104): its mapped form.
      return a instanceof ipaddr.IPv4 && a.toIPv4MappedAddress().match(net, bits);
    });
  };
  return {
    callerOf: (ip) => (inRanges(ip) ? anonymousCaller(addressGroup(ip, o.ipv6Prefix)) : undefined),
  };
}
