import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logger-options.ts';
import { redactPathKey, underPathKey } from '../../src/http/path-key.ts';
import { Writable } from 'node:stream';

describe('redactPathKey', () => {
  it('hides the first segment after /k/, whatever it holds, and keeps the rest', () => {
    expect(redactPathKey('/k/scout_abc/search')).toBe('/k/[redacted]/search');
    expect(redactPathKey('/k/scout_abc/search?q=x')).toBe('/k/[redacted]/search?q=x');
    expect(redactPathKey('/k/scout_abc')).toBe('/k/[redacted]');
    expect(redactPathKey('/k/')).toBe('/k/[redacted]');
    // The router decodes `%6B` to k before matching: such a path reaches the route too.
    expect(redactPathKey('/%6B/scout_abc/search')).toBe('/k/[redacted]/search');
    expect(redactPathKey('/%6b/scout_abc/search')).toBe('/k/[redacted]/search');
  });

  it('leaves every other path alone', () => {
    for (const path of ['/search', '/v1/search?q=k', '/kk/x/search', '/x/k/secret', '/'])
      expect(redactPathKey(path)).toBe(path);
  });

  it('declares the route under a key as /k/:key/…', () => {
    expect(underPathKey('/search')).toBe('/k/:key/search');
  });
});

describe("the process logger's request serializer", () => {
  it('writes a path key as [redacted] and drops the query string', () => {
    let out = '';
    const stream = new Writable({
      write(chunk, _enc, cb) {
        out += chunk.toString();
        cb();
      },
    });
    createLogger('info', stream).info({ req: { method: 'GET', url: '/k/scout_secret/search?q=x', ip: '::1' } }, 'r');
    expect(JSON.parse(out).req).toEqual({ method: 'GET', path: '/k/[redacted]/search', ip: '::1' });
    expect(out).not.toContain('scout_secret');
  });
});
