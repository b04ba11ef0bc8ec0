import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { createOriginPolicy } from '../../src/mcp/origin-policy.ts';

describe('the /mcp Origin policy', () => {
  const allow = createOriginPolicy({ publicUrl: 'https://scout.example.com', allowedOrigins: ['https://app.example'] });

  it.each([
    [undefined, 'scout.example.com', true, 'no Origin (a client outside a browser)'],
    ['https://scout.example.com', 'scout.example.com', true, "SCOUT_PUBLIC_URL's origin"],
    ['https://SCOUT.example.com:443', 'whatever', true, 'the same origin spelled otherwise'],
    ['https://app.example', 'scout.example.com', true, 'listed in SCOUT_MCP_ALLOWED_ORIGINS'],
    ['http://localhost:8080', 'localhost:8080', true, 'a loopback page of the same origin'],
    ['http://127.0.0.1:8080', '127.0.0.1:8080', true, 'a loopback address of the same origin'],
    ['http://[::1]:8080', '[::1]:8080', true, 'IPv6 loopback of the same origin'],
    ['http://localhost:3000', 'localhost:8080', false, 'another loopback port'],
    [
      'http://evil.example:8080',
      'evil.example:8080',
      false,
      'a rebinding page: Origin equals a Host that is not loopback',
    ],
    ['http://scout.example.com', 'scout.example.com', false, 'the public origin with another scheme'],
    ['null', 'localhost:8080', false, 'an opaque origin'],
    ['not a url', 'localhost:8080', false, 'garbage'],
  ] as [string | undefined, string, boolean, string][])('%s with Host %s → %s (%s)', (origin, host, expected) => {
    expect(allow(origin, host)).toBe(expected);
  });

  it('SCOUT_MCP_ALLOWED_ORIGINS takes origins only, normalised', () => {
    expect(
      loadConfig({ SCOUT_MCP_ALLOWED_ORIGINS: 'https://App.example:443/, http://x.example:8080' }).mcpAllowedOrigins,
    ).toEqual(['https://app.example', 'http://x.example:8080']);
    expect(() => loadConfig({ SCOUT_MCP_ALLOWED_ORIGINS: 'https://app.example/path' })).toThrow(
      /SCOUT_MCP_ALLOWED_ORIGINS must list origins only/,
    );
    expect(() => loadConfig({ SCOUT_MCP_MAX_RESULT_TOKENS: '20001' })).toThrow(
      /SCOUT_MCP_MAX_RESULT_TOKENS must be an integer from 2000 to 20000/,
    );
  });
});
