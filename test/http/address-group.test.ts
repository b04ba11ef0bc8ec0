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
});
