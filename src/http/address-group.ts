import ipaddr from 'ipaddr.js';

/**
 * The address the per-address limits count by: an IPv4 address (IPv4-mapped IPv6 included)
 * or an IPv6 prefix, /56 unless told (the anonymous tier's SCOUT_ANONYMOUS_IPV6_PREFIX). One
 * customer is commonly given a /56 (256 /64s) or more, so counting by /64 would let it open
 * 256 times the per-address cap from addresses it owns.
 */
export function addressGroup(remote: string | undefined, ipv6Prefix = 56): string {
  if (remote === undefined) return '';
  try {
    let a = ipaddr.parse(remote);
    if (a instanceof ipaddr.IPv6 && a.isIPv4MappedAddress()) a = a.toIPv4Address();
    if (a instanceof ipaddr.IPv4) return a.toString();
    // The 16-bit groups the prefix reaches, its last one masked: `2001:db8:1:0::/56`.
    const shown = Math.ceil(ipv6Prefix / 16);
    const groups = a.parts.slice(0, shown).map((part, i) => {
      const bits = Math.min(16, ipv6Prefix - i * 16);
      return (part & ((0xffff << (16 - bits)) & 0xffff)).toString(16);
    });
    return `${groups.join(':')}${shown < 8 ? '::' : ''}/${ipv6Prefix}`;
  } catch {
    return remote;
  }
}
