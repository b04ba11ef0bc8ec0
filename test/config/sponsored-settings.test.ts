import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';

describe('sponsored settings', () => {
  it('default to two ads, 30-day click URLs and no admin API', () => {
    const c = loadConfig({});
    expect(c.sponsoredMax).toBe(2);
    expect(c.sponsoredRecTtlDays).toBe(30);
    expect(c.adminToken).toBeUndefined();
  });

  it('accept 0 ads (off) and a long admin token', () => {
    const c = loadConfig({ SCOUT_SPONSORED_MAX: '0', SCOUT_ADMIN_TOKEN: 'a'.repeat(24) });
    expect(c.sponsoredMax).toBe(0);
    expect(c.adminToken).toBe('a'.repeat(24));
  });

  it.each([
    ['SCOUT_SPONSORED_MAX', '11'],
    ['SCOUT_SPONSORED_MAX', 'two'],
    ['SCOUT_SPONSORED_REC_TTL_DAYS', '0'],
    ['SCOUT_ADMIN_TOKEN', 'short'],
    ['SCOUT_ADMIN_TOKEN', `${'a'.repeat(20)} ${'b'.repeat(20)}`],
  ])('%s=%s stops the start with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });
});
