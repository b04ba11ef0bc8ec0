import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../src/fetch/address-policy.ts';

// Unit level only: nothing here connects anywhere.
const policy = createAddressPolicy([]);

const REFUSED_V4: [string, string][] = [
  ['0.0.0.0', 'this network'],
  ['0.255.255.255', 'this network'],
  ['10.0.0.1', 'private-use'],
  ['10.255.255.255', 'private-use'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.255', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private-use'],
  ['172.31.255.255', 'private-use'],
  ['192.0.0.1', 'IETF protocol assignments'],
  ['192.0.0.9', 'IETF protocol assignments'],
  ['192.0.0.170', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4 relay'],
  ['192.168.1.1', 'private-use'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.5', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
];

const ALLOWED_V4 = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '11.0.0.1',
  '126.255.255.255',
  '128.0.0.1',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.3.1',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '192.31.196.1',
  '192.52.193.1',
  '192.175.48.1', // AS112, AMT: globally reachable per IANA
];

const REFUSED_V6: [string, string][] = [
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped form of 127.0.0.1, loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped form of 127.0.0.1'],
  ['::ffff:10.1.2.3', 'private-use'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::127.0.0.1', 'IPv4-compatible form of 127.0.0.1'],
  ['::a00:1', 'IPv4-compatible form of 10.0.0.1'],
  ['::0.0.0.2', 'IPv4-compatible form of 0.0.0.2'],
  ['64:ff9b::127.0.0.1', 'NAT64 form of 127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 form of 169.254.169.254'],
  ['64:ff9b:1::7f00:1', 'NAT64 form of 127.0.0.1'],
  ['64:ff9b:1:abcd::1', 'local-use NAT64'],
  ['2002:7f00:1::', '6to4 form of 127.0.0.1'],
  ['2002:c0a8:101::1', '6to4 form of 192.168.1.1'],
  ['2002:a00:1:1::5', '6to4 form of 10.0.0.1'],
  // Teredo: server 65.54.227.120 (public), client bit-inverted 0x80fffffe → 127.0.0.1.
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo form of 127.0.0.1'],
  // Teredo: server 10.0.0.1, client 8.8.8.8.
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'Teredo form of 10.0.0.1'],
  ['100::1', 'discard-only'],
  ['2001:1::1', 'IETF protocol assignments'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'IETF protocol assignments'],
  ['2001:20::1', 'IETF protocol assignments'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'SRv6'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['4000::1', 'outside global unicast'],
  ['::ffff:0:7f00:1', 'outside global unicast'], // IPv4-translated (RFC 6145)
];

const ALLOWED_V6 = [
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:800::200e',
  '3ffe::1',
  '::ffff:8.8.8.8',
  '::808:808',
  '64:ff9b::8.8.8.8',
  '64:ff9b:1::808:808',
  '2002:808:808::1',
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo, both ends public
  '2001:3::1',
  '2001:4:112::1',
];

describe('address policy', () => {
  it.each(REFUSED_V4)('refuses %s (%s)', (address, label) => {
    const v = policy.check(address);
    expect(v.allowed).toBe(false);
    if (!v.allowed) expect(v.reason).toContain(label);
  });

  it.each(ALLOWED_V4)('allows public %s', (address) => {
    expect(policy.check(address)).toEqual({ allowed: true, address });
  });

  it.each(REFUSED_V6)('refuses %s (%s)', (address, label) => {
    const v = policy.check(address);
    expect(v.allowed).toBe(false);
    if (!v.allowed) expect(v.reason).toContain(label);
  });

  it.each(ALLOWED_V6)('allows public %s', (address) => {
    expect(policy.check(address).allowed).toBe(true);
  });

  it('refuses strings that are not strict IP addresses (no legacy notations)', () => {
    for (const s of ['0x7f.1', '2130706433', '0177.0.0.1', 'example.com', '', '[::1]']) {
      expect(policy.check(s).allowed).toBe(false);
    }
  });

  it('lets the operator allow-list reach exactly the listed ranges', () => {
    const p = createAddressPolicy(['127.0.0.2/32', 'fd00::/8']);
    expect(p.check('127.0.0.2').allowed).toBe(true);
    expect(p.check('::ffff:127.0.0.2').allowed).toBe(true);
    expect(p.check('fd00::5').allowed).toBe(true);
    expect(p.check('127.0.0.1').allowed).toBe(false);
    expect(p.check('127.0.0.3').allowed).toBe(false);
    expect(p.check('fc00::5').allowed).toBe(false);
  });

  it('rejects a malformed allow-list entry', () => {
    expect(() => createAddressPolicy(['127.0.0.2'])).toThrow(/not a CIDR/);
  });
});
