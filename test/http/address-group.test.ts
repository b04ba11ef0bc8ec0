import { describe, expect, it } from 'vitest';
import { addressGroup } from '../../src/http/address-group.ts';

describe('addressGroup', () => {
  it('counts IPv4 by address, IPv4-mapped IPv6 as IPv4, and IPv6 by /56', () => {
    expect(addressGroup('127.0.0.3')).toBe('127.0.0.3');
    expect(addressGroup('::ffff:127.0.0.3')).toBe('127.0.0.3');
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:0::/56');
    // The 256 /64s of one /56 are one address.
    expect(addressGroup('2001:db8:1:ff:bbbb::9')).toBe('2001:db8:1:0::/56');
    expect(addressGroup('2001:db8:1:1ff::1')).toBe('2001:db8:1:100::/56');
    expect(addressGroup('2001:db8:2::1')).toBe('2001:db8:2:0::/56');
    expect(addressGroup(undefined)).toBe('');
  });

  it('counts IPv6 by the prefix it is given: two addresses in one prefix share a group, other prefixes do not', () => {
    const a = '2001:db8:1:2:aaaa::1';
    const b = '2001:db8:1:2f:bbbb::9';
    expect(addressGroup(a)).toBe(addressGroup(b));
    expect(addressGroup(a, 64)).toBe('2001:db8:1:2::/64');
    expect(addressGroup(a, 64)).not.toBe(addressGroup(b, 64));
    expect(addressGroup(a, 48)).toBe('2001:db8:1::/48');
    expect(addressGroup('2001:db8:ffff:2::1', 33)).toBe('2001:db8:8000::/33');
    expect(addressGroup(a, 128)).toBe('2001:db8:1:2:aaaa:0:0:1/128');
    expect(addressGroup('2001:db8:1:100::1', 56)).not.toBe(addressGroup(a, 56));
    // IPv4 and IPv4-mapped IPv6 are one address whatever the prefix.
    expect(addressGroup('::ffff:10.1.2.3', 32)).toBe('10.1.2.3');
  });
});
