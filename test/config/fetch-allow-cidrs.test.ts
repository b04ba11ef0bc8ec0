import { describe, expect, it } from 'vitest';
import { configWarnings } from '../../src/config/config-warnings.ts';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';

const ACK = { SCOUT_FETCH_ALLOW_WIDE_CIDRS: 'true' };

describe('SCOUT_FETCH_ALLOW_CIDRS', () => {
  it('parses ranges up to a /8 (IPv4) or /16 (IPv6) without any acknowledgement', () => {
    const c = loadConfig({
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32, 10.0.0.0/8,fd12:3456:789a::/48,2001:db8::/32,::ffff:10.0.0.0/104',
    });
    expect(c.fetchAllowCidrs).toEqual([
      '127.0.0.2/32',
      '10.0.0.0/8',
      'fd12:3456:789a::/48',
      '2001:db8::/32',
      '::ffff:a00:0/104',
    ]);
    expect(c.fetchAllowWideCidrs).toBe(false);
  });

  it.each([
    ['0.0.0.0/0', 'all of IPv4'],
    ['10.0.0.0/7', 'wider than /8'],
    ['::/0', 'all of IPv6'],
    ['2000::/3', 'all global unicast IPv6'],
    ['fc00::/7', 'every unique-local network'],
    ['2001:db8::/15', 'wider than /16'],
    ['::ffff:0:0/96', 'every IPv4 address, IPv4-mapped'],
    ['::/64', 'holds the IPv4-mapped and -compatible ranges'],
    ['64:ff9b::/100', 'NAT64 of a /4'],
    ['2002::/16', '6to4 of all of IPv4'],
    ['2001::/32', 'Teredo: every client address'],
  ])('refuses %s (%s) with a one-line message naming the variable, the range and the acknowledgement', (range) => {
    const env = { SCOUT_FETCH_ALLOW_CIDRS: `127.0.0.2/32,${range}` };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    let message = '';
    try {
      loadConfig(env);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^SCOUT_FETCH_ALLOW_CIDRS /);
    expect(message).toContain(range);
    expect(message).not.toContain('127.0.0.2/32');
    expect(message).toContain('SCOUT_FETCH_ALLOW_WIDE_CIDRS=true');
    expect(message).not.toContain('\n');
  });

  it('accepts a wide range when SCOUT_FETCH_ALLOW_WIDE_CIDRS=true acknowledges it', () => {
    const c = loadConfig({ SCOUT_FETCH_ALLOW_CIDRS: '0.0.0.0/0,::/0', ...ACK });
    expect(c.fetchAllowCidrs).toEqual(['0.0.0.0/0', '::/0']);
    expect(c.fetchAllowWideCidrs).toBe(true);
  });

  it('checks the acknowledgement like any boolean setting', () => {
    expect(() => loadConfig({ SCOUT_FETCH_ALLOW_WIDE_CIDRS: 'sure' })).toThrow(
      /^SCOUT_FETCH_ALLOW_WIDE_CIDRS must be true or false/,
    );
  });

  it('has no warning by default', () => {
    expect(configWarnings(loadConfig({}))).toEqual([]);
    expect(configWarnings(loadConfig(ACK))).toEqual([]);
  });

  it('warns in one line that names every allowed range', () => {
    const warnings = configWarnings(loadConfig({ SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32,10.0.0.0/8' }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^SCOUT_FETCH_ALLOW_CIDRS /);
    expect(warnings[0]).toContain('127.0.0.2/32, 10.0.0.0/8');
    expect(warnings[0]).not.toContain('\n');
    expect(warnings[0]).not.toContain('SCOUT_FETCH_ALLOW_WIDE_CIDRS');
  });

  it('names the acknowledged wide ranges in the warning', () => {
    const [warning] = configWarnings(loadConfig({ SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32,0.0.0.0/0', ...ACK }));
    expect(warning).toContain('127.0.0.2/32, 0.0.0.0/0');
    expect(warning).toMatch(/SCOUT_FETCH_ALLOW_WIDE_CIDRS=true acknowledges 0\.0\.0\.0\/0/);
  });
});
