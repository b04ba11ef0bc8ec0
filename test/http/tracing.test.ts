import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/** A loopback OTLP/HTTP receiver: keeps every span it is sent (JSON encoding). */
async function startReceiver(): Promise<{ url: string; spans: OtlpSpan[]; server: Server }> {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const doc = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const r of doc.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/traces`, spans, server };
}

const attr = (s: OtlpSpan, key: string): string | undefined => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : String(v.intValue));
};

const ARTICLE =
  '<!doctype html><html><head><title>Traced puffins</title></head><body><main><article><h1>Traced puffins</h1>' +
  '<p>Puffins nest on high cliffs and return to the same burrow every spring, year after year.</p></article></main></body></html>';

describe('tracing (SCOUT_TRACING_OTLP_URL)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let page: FixtureServer;
  let t: TestScout | undefined;
  let requestId = '';
  let pathKeyRequestId = '';
  let key = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    page = await startFixtureServer({
      '/puffins': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE },
    });
    t = await startTestScout({
      SCOUT_TRACING_OTLP_URL: receiver.url,
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
      SCOUT_PATH_KEYS: 'true',
    });
    const r = await t.request('POST', '/v1/fetch', { body: { url: page.url('/puffins') } });
    expect(r.status).toBe(200);
    requestId = r.headers.get('x-request-id')!;
    key = t.key;
    const keyed = await t.request('GET', `/k/${key}/search?q=fetch&format=json`, { key: null });
    expect(keyed.status).toBe(200);
    pathKeyRequestId = keyed.headers.get('x-request-id')!;
    // Closing sends what is still batched.
    await t.close();
    t = undefined;
  });
  afterAll(async () => {
    await t?.close();
    await page?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('sends a server span per request carrying its request_id, and the outbound fetch as a client span in the same trace', () => {
    const server = receiver.spans.find((s) => attr(s, 'scout.request_id') === requestId);
    expect(server, JSON.stringify(receiver.spans.map((s) => [s.name, s.kind]))).toBeDefined();
    const client = receiver.spans.filter((s) => s.traceId === server!.traceId && s.kind === 3);
    expect(client.map((s) => attr(s, 'url.full'))).toContain(page.url('/puffins'));
    const fetchSpan = client.find((s) => attr(s, 'url.full') === page.url('/puffins'))!;
    expect(attr(fetchSpan, 'http.response.status_code')).toBe('200');
  });

  it('never sends a key carried in the path (SCOUT_PATH_KEYS): url.path has it redacted', () => {
    const server = receiver.spans.find((s) => attr(s, 'scout.request_id') === pathKeyRequestId);
    expect(server && attr(server, 'url.path')).toBe('/k/[redacted]/search?q=fetch&format=json');
    expect(server && attr(server, 'http.route')).toBe('/k/:key/search');
    // Client spans (kind 3) left out: the undici instrumentation runs in this test's process
    // and traces the test's own request to Scout, which Scout never makes.
    expect(JSON.stringify(receiver.spans.filter((s) => s.kind !== 3))).not.toContain(key);
  });

  it('is off without the setting: nothing is sent', async () => {
    const before = receiver.spans.length;
    const quiet = await startTestScout({ SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
    try {
      expect((await quiet.request('POST', '/v1/fetch', { body: { url: page.url('/puffins') } })).status).toBe(200);
    } finally {
      await quiet.close();
    }
    expect(receiver.spans.length).toBe(before);
  });
});
