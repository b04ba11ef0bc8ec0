import { afterEach, describe, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from '../../src/http/metrics-server.ts';
import type { ScoutMetrics } from '../../src/metrics/scout-metrics.ts';
import { openRaw, within } from './raw-socket.ts';

// The SCOUT_METRICS_PORT listener, alone, with metrics rendered after an await (as the real
// ones are): a half-closed scraper and CONNECT both get an answer.
const metrics = {
  contentType: 'text/plain; version=0.0.4',
  render: async () => (await new Promise((r) => setTimeout(r, 50)), 'scout_up 1\n'),
} as unknown as ScoutMetrics;

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function exchange(request: string, halfClose: boolean): Promise<string> {
  const c = await openRaw(`http://127.0.0.1:${server!.port}`);
  if (halfClose) c.socket.end(request);
  else c.socket.write(request);
  await within(c.closed, 10_000, 'the answer and the close');
  return c.received();
}

describe('the metrics listener', () => {
  it('answers a scraper that shuts its side after its request', async () => {
    server = await startMetricsServer(metrics, 0);
    const text = await exchange('GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n', true);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain('scout_up 1');
  });

  it('answers CONNECT with 405 in the Error shape', async () => {
    server = await startMetricsServer(metrics, 0);
    const text = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', false);
    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.status).toBe(405);
  });
});
