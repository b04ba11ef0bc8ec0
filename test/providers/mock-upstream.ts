import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { SearchQuery } from '../../src/search/search-types.ts';

/** A loopback stand-in for an upstream search API, serving recorded fixture bodies. */

export interface RecordedRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface MockReply {
  status?: number;
  body?: string | object;
  contentType?: string;
  delayMs?: number;
  /** Never answer (the client has to time out). */
  hang?: boolean;
  /** Send the body gzip-compressed, with `content-encoding: gzip` (Stack Exchange's API always does). */
  gzip?: boolean;
}

export interface MockUpstream {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  reply: (req: RecordedRequest) => MockReply;
  close(): Promise<void>;
}

const FIXTURES = fileURLToPath(new URL('../fixtures/providers/', import.meta.url));

export const fixture = (provider: string, file: string): string =>
  readFileSync(`${FIXTURES}${provider}/${file}`, 'utf8');

export const jsonFixture = (provider: string, file: string): unknown => JSON.parse(fixture(provider, file));

function send(res: import('node:http').ServerResponse, r: MockReply): void {
  const body = typeof r.body === 'string' || r.body === undefined ? (r.body ?? '') : JSON.stringify(r.body);
  const type =
    r.contentType ?? (typeof r.body === 'object' || /^\s*[[{]/.test(body) ? 'application/json' : 'text/html');
  const bytes = r.gzip ? gzipSync(body) : Buffer.from(body);
  res.writeHead(r.status ?? 200, {
    'content-type': type,
    'content-length': bytes.length,
    ...(r.gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  res.end(bytes);
}

export async function startMockUpstream(
  reply: (req: RecordedRequest) => MockReply = () => ({}),
): Promise<MockUpstream> {
  const requests: RecordedRequest[] = [];
  const mock = { requests, reply } as MockUpstream;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(rec);
      const r = mock.reply(rec);
      if (r.hang) return;
      if (r.delayMs) setTimeout(() => send(res, r), r.delayMs);
      else send(res, r);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return mock;
}

/** A SearchQuery with defaults, as the search service hands it over. */
export const query = (over: Partial<SearchQuery> = {}): SearchQuery => ({
  query: 'rust async runtime',
  maxResults: 10,
  includeDomains: [],
  excludeDomains: [],
  depth: 'basic',
  ...over,
});

/** A signal that never aborts. */
export const noAbort = (): AbortSignal => new AbortController().signal;

/** Fixed clock of the adapter tests: 2025-01-08T12:00:00Z. */
export const NOW = new Date('2025-01-08T12:00:00Z');
