import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { at, must } from '../domain/must.ts';

/**
 * Which IP addresses a fetch may connect to: only globally routable ones, after the IANA
 * IPv4 and IPv6 Special-Purpose Address Registries (plus multicast, and the IPv6 space
 * outside global unicast 2000::/3). IPv6 forms that carry an IPv4 address (mapped,
 * compatible, NAT64, 6to4, Teredo) are judged by the IPv4 address they lead to.
 *
 * Deliberately stricter than the registry's "globally reachable" column in one place:
 * anycast service addresses that reach on-path infrastructure (PCP/TURN anycast in
 * 192.0.0.0/24, 2001:1::/48) and non-routable identifiers (ORCHID, DRIP) are refused.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

export type AddressVerdict = { allowed: true; address: string } | { allowed: false; address: string; reason: string };

export interface AddressPolicy {
  /** Judges one address string (IPv4 dotted or IPv6, no brackets). Never throws. */
  check(address: string): AddressVerdict;
}

const table = (rows: [string, string][]): [Cidr, string][] =>
  rows.map(([cidr, label]) => [ipaddr.parseCIDR(cidr), `${label} ${cidr}`]);

// Most specific first: the first match names the range in the message.
const REFUSED_V4 = table([
  ['255.255.255.255/32', 'limited broadcast'],
  ['0.0.0.0/8', '"this network"'],
  ['10.0.0.0/8', 'private-use'],
  ['100.64.0.0/10', 'shared address space (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private-use'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private-use'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

// Inside 2001::/23 (refused) these are ordinary global unicast per IANA.
const GLOBAL_V6_EXCEPTIONS = table([
  ['2001:3::/32', 'AMT'],
  ['2001:4:112::/48', 'AS112-v6'],
]);

const REFUSED_V6 = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'discard-only'],
  ['100:0:0:1::/64', 'dummy prefix'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:db8::/32', 'documentation'],
  ['2001::/23', 'IETF protocol assignments'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing (SRv6) SIDs'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'deprecated site-local'],
  ['ff00::/8', 'multicast'],
]);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const COMPATIBLE = ipaddr.parseCIDR('::/96');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const NAT64_LOCAL = ipaddr.parseCIDR('64:ff9b:1::/48');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');

const inRange = (addr: Address, [net, bits]: Cidr): boolean => addr.kind() === net.kind() && addr.match(net, bits);

const findRange = (addr: Address, rows: [Cidr, string][]): string | undefined =>
  rows.find(([cidr]) => inRange(addr, cidr))?.[1];

const v4From = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** IPv4 addresses an IPv6 address leads to, with the name of the form; null if none. */
function embeddedV4(addr: ipaddr.IPv6): { form: string; v4: ipaddr.IPv4[] } | null {
  // Group i of the eight 16-bit groups ipaddr.js gives an IPv6 address.
  const p = (i: number): number => at(addr.parts, i, 'group of an IPv6 address');
  if (addr.isIPv4MappedAddress()) return { form: 'IPv4-mapped', v4: [addr.toIPv4Address()] };
  if (inRange(addr, COMPATIBLE)) return { form: 'IPv4-compatible', v4: [v4From(p(6), p(7))] };
  if (inRange(addr, NAT64)) return { form: 'NAT64', v4: [v4From(p(6), p(7))] };
  // Local-use NAT64 prefixes may be /48../96; only the /96 layout has an unambiguous IPv4.
  if (inRange(addr, NAT64_LOCAL))
    return p(3) === 0 && p(4) === 0 && p(5) === 0
      ? { form: 'NAT64', v4: [v4From(p(6), p(7))] }
      : { form: 'local-use NAT64', v4: [] };
  if (inRange(addr, SIX_TO_FOUR)) return { form: '6to4', v4: [v4From(p(1), p(2))] };
  // Teredo (RFC 4380): server IPv4 in bits 32..63, client IPv4 bit-inverted in the last 32.
  if (inRange(addr, TEREDO))
    return { form: 'Teredo', v4: [v4From(p(2), p(3)), v4From(~p(6) & 0xffff, ~p(7) & 0xffff)] };
  return null;
}

/**
 * ipaddr.js quirk (2.5.0): it parses "::a.b.c.d" (IPv4-compatible) as "::ffff:a.b.c.d"
 * (IPv4-mapped). Rewriting a dotted tail as two hex groups first keeps the two forms apart.
 */
const parseStrict = (address: string): Address => {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (isIP(address) !== 6 || dotted === null) return ipaddr.parse(address);
  const group = (i: number): number => Number(must(dotted[i], 'a group of a dotted IPv4 tail'));
  const hex = `${((group(1) << 8) | group(2)).toString(16)}:${((group(3) << 8) | group(4)).toString(16)}`;
  return ipaddr.parse(address.slice(0, dotted.index) + hex);
};

/** Creates the policy; `allowCidrs` (SCOUT_FETCH_ALLOW_CIDRS) are reachable even if special. Throws on a malformed CIDR. */
export function createAddressPolicy(allowCidrs: readonly string[]): AddressPolicy {
  const allowed: Cidr[] = allowCidrs.map((c) => {
    if (!ipaddr.isValidCIDR(c)) throw new Error(`"${c}" is not a CIDR such as 127.0.0.2/32`);
    return ipaddr.parseCIDR(c);
  });

  const refusal = (addr: Address): string | undefined => {
    if (allowed.some((cidr) => inRange(addr, cidr))) return undefined;
    if (addr.kind() === 'ipv4') return findRange(addr, REFUSED_V4);
    const v6 = addr as ipaddr.IPv6;
    const only = findRange(v6, REFUSED_V6.slice(0, 2)); // :: and ::1 sit inside ::/96
    if (only !== undefined) return only;
    const embedded = embeddedV4(v6);
    if (embedded !== null) {
      if (embedded.v4.length === 0) return `${embedded.form} with a prefix longer than /96 (64:ff9b:1::/48)`;
      for (const v4 of embedded.v4) {
        const why = refusal(v4);
        if (why !== undefined) return `${embedded.form} form of ${v4.toString()}, ${why}`;
      }
      return undefined;
    }
    if (findRange(v6, GLOBAL_V6_EXCEPTIONS) !== undefined) return undefined;
    return (
      findRange(v6, REFUSED_V6) ?? (inRange(v6, GLOBAL_UNICAST_V6) ? undefined : 'outside global unicast 2000::/3')
    );
  };

  return {
    check(address) {
      if (isIP(address) === 0) return { allowed: false, address, reason: 'not an IP address' };
      const why = refusal(parseStrict(address));
      return why === undefined ? { allowed: true, address } : { allowed: false, address, reason: why };
    },
  };
}
