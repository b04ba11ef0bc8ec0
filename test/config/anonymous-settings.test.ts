import { describe, expect, it } from 'vitest';
import { anonymousBudgetUnits, anonymousLine } from '../../src/config/anonymous-settings.ts';
import { configWarnings } from '../../src/config/config-warnings.ts';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';

describe('anonymous tier settings', () => {
  it('default to off: no keyless requests, every address when on, IPv6 /56, a 10% share, no trusted proxy', () => {
    const c = loadConfig({});
    expect(c.anonymousRpm).toBe(0);
    expect(c.anonymousCidrs).toEqual([]);
    expect(c.anonymousIpv6Prefix).toBe(56);
    expect(c.anonymousBudgetShare).toBe(10);
    expect(c.trustedProxies).toEqual([]);
    expect(anonymousLine(c)).toBeUndefined();
    expect(configWarnings(c)).toEqual([]);
  });

  it('take ranges normalised, a prefix and a share; the share is a percent of the budget, rounded down', () => {
    const c = loadConfig({
      SCOUT_ANONYMOUS_RPM: '30',
      SCOUT_ANONYMOUS_CIDRS: ' 10.0.0.0/8, fd00::/8 ',
      SCOUT_ANONYMOUS_IPV6_PREFIX: '64',
      SCOUT_ANONYMOUS_BUDGET_SHARE: '15',
      SCOUT_MONTHLY_SEARCH_BUDGET: '999',
      SCOUT_TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
    });
    expect(c.anonymousCidrs).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(c.trustedProxies).toEqual(['127.0.0.1/32', '::1/128']);
    expect(anonymousBudgetUnits(c)).toBe(149);
    expect(anonymousLine(c)).toBe(
      'anonymous: requests without a key allowed, 30 requests/min per address (IPv6 /64), from 10.0.0.0/8, fd00::/8; 149 of 999 search units a month',
    );
    // A trusted network: nothing to warn about.
    expect(configWarnings(c)).toEqual([]);
  });

  it('warn at start of a public free tier (no ranges), and of ranges set while the tier is off', () => {
    const open = loadConfig({ SCOUT_ANONYMOUS_RPM: '10' });
    expect(anonymousLine(open)).toMatch(/from any address; 1000 of 10000 search units a month$/);
    expect(configWarnings(open)).toEqual([
      expect.stringMatching(/^SCOUT_ANONYMOUS_RPM=10 without SCOUT_ANONYMOUS_CIDRS: any client .* public free tier/),
    ]);
    expect(configWarnings(loadConfig({ SCOUT_ANONYMOUS_CIDRS: '10.0.0.0/8' }))).toEqual([
      expect.stringMatching(/^SCOUT_ANONYMOUS_CIDRS is set but SCOUT_ANONYMOUS_RPM is 0/),
    ]);
  });

  it.each([
    ['SCOUT_ANONYMOUS_RPM', '-1', /must be an integer from 0 to 1000000/],
    ['SCOUT_ANONYMOUS_RPM', 'lots', /must be an integer/],
    ['SCOUT_ANONYMOUS_CIDRS', '10.0.0.0/33', /must be a comma-separated list of CIDRs/],
    ['SCOUT_ANONYMOUS_CIDRS', '10.0.0.1', /got "10.0.0.1"/],
    ['SCOUT_ANONYMOUS_IPV6_PREFIX', '31', /from 32 to 128/],
    ['SCOUT_ANONYMOUS_IPV6_PREFIX', '129', /from 32 to 128/],
    ['SCOUT_ANONYMOUS_BUDGET_SHARE', '101', /from 0 to 100/],
    ['SCOUT_ANONYMOUS_BUDGET_SHARE', '-5', /from 0 to 100/],
    ['SCOUT_TRUSTED_PROXIES', 'proxy.local', /must be a comma-separated list of CIDRs/],
  ])('%s=%s stops the start with a message naming it', (name, value, why) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} `));
    expect(() => loadConfig({ [name]: value })).toThrow(why);
  });
});
