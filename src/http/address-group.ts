import ipaddr from 'ipaddr.js';

/**
 * The address the per-address cap and the fair share count by: an IPv4 address (IPv4-mapped
 * IPv6 included) or an IPv6 /56. One customer is commonly given a /56 (256 /64s) or more, so
 * counting by /64 would let it open 256 times the per-address cap from addresses it owns.
 */
export function addressGroup(remote: string | undefined): string {
  if (remote === undefined) return '';
  try {
    let a = ipaddr.parse(remote);
    if (a instanceof ipaddr.IPv6 && a.isIPv4MappedAddress()) a = a.toIPv4Address();
    if (a instanceof ipaddr.IPv4) return a.toString();
    const [p0, p1, p2, p3] = a.parts as [number, number, number, number];
    return `${p0.toString(16)}:${p1.toString(16)}:${p2.toString(16)}:${(p3 & 0xff00).toString(16)}::/56`;
  } catch {
    return remote;
  }
}
