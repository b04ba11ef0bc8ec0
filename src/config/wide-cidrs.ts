import ipaddr from 'ipaddr.js';

/**
 * Prefixes shorter than these are "wide". IPv4 /8 is the largest block one network owns
 * (10/8 is the largest private one). IPv6 has no such landmark, so /16: real deployments
 * allow a site /48 or at most a provider /32, while anything shorter than /16 can only be a
 * registry-scale block or a whole address class (2000::/3, fc00::/7, fe80::/10, ::/0).
 */
export const WIDE_BELOW = { ipv4: 8, ipv6: 16 } as const;

// IPv6 ranges whose addresses lead to an IPv4 address (src/fetch/address-policy.ts judges
// them by it), with the bit where that IPv4 address starts: allowing such a range allows the
// IPv4 range it embeds, so ::ffff:0:0/96 is as wide as 0.0.0.0/0 although its prefix is long.
const EMBEDS_IPV4: [ipaddr.IPv6, number, number][] = (
  [
    ['::ffff:0:0/96', 96], // IPv4-mapped
    ['::/96', 96], // IPv4-compatible
    ['64:ff9b::/96', 96], // NAT64
    ['64:ff9b:1::/48', 96], // local-use NAT64 (its /96 layout)
    ['2002::/16', 16], // 6to4
    ['2001::/32', 96], // Teredo: the client address is the last 32 bits
  ] as const
).map(([cidr, v4Start]) => {
  const [net, bits] = ipaddr.parseCIDR(cidr);
  return [net as ipaddr.IPv6, bits, v4Start];
});

/** Whether fetch allowed into `cidr` (as cidrList normalised it) could reach more than a /8 of IPv4 or a /16 of IPv6. */
export function isWideCidr(cidr: string): boolean {
  const [addr, bits] = ipaddr.parseCIDR(cidr);
  if (addr.kind() === 'ipv4') return bits < WIDE_BELOW.ipv4;
  if (bits < WIDE_BELOW.ipv6) return true;
  return EMBEDS_IPV4.some(([net, netBits, v4Start]) =>
    bits <= netBits
      ? net.match(addr, bits) // holds the whole embedding range: every IPv4 address
      : addr.match(net, netBits) && bits - v4Start < WIDE_BELOW.ipv4,
  );
}
