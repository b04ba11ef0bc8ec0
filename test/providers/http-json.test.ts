import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact, requestJson } from '../../src/providers/http-json.ts';
import { ProviderError } from '../../src/providers/provider.ts';
import { noAbort, startMockUpstream, type MockUpstream } from './mock-upstream.ts';

describe('requestJson', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(() => mock.close());

  const call = (over: Partial<Parameters<typeof requestJson>[0]> = {}) =>
    requestJson({ provider: 'p', url: `${mock.url}/x`, signal: noAbort(), ...over }).catch(
      (e: unknown) => e as ProviderError,
    );

  it('sends JSON bodies and parses JSON answers', async () => {
    mock.reply = (req) => ({
      body: { echo: JSON.parse(req.body), type: req.headers['content-type'], accept: req.headers.accept },
    });
    expect(await call({ method: 'POST', body: { a: 1 } })).toEqual({
      echo: { a: 1 },
      type: 'application/json',
      accept: 'application/json',
    });
  });

  it('refuses bodies past the size cap', async () => {
    mock.reply = () => ({ body: JSON.stringify({ big: 'x'.repeat(5000) }) });
    const e = await call({ maxBytes: 1000 });
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).message).toBe('malformed response (larger than 1000 bytes)');
  });

  it('does not follow redirects', async () => {
    mock.reply = () => ({ status: 302, body: '' });
    const e = (await call()) as ProviderError;
    expect(e.failure).toBe('http');
    expect(e.message).toBe('HTTP 302 (redirects are not followed)');
  });

  it('reports an aborted call as such', async () => {
    mock.reply = () => ({ hang: true });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const e = (await call({ signal: ac.signal })) as ProviderError;
    expect(e.failure).toBe('timeout');
    expect(e.message).toBe('request aborted');
  });

  it('redacts every secret from logged text', () => {
    expect(redact('key=abcd1234 and abcd1234', ['abcd1234'])).toBe('key=[redacted] and [redacted]');
    expect(redact('short', ['ab'])).toBe('short');
  });
});
