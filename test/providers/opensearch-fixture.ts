import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defined } from '../helpers/defined.ts';
import { fixture, jsonFixture } from './mock-upstream.ts';

/**
 * A loopback stand-in for one OpenSearch node, answering with bodies shaped like the
 * documented ones (test/fixtures/providers/opensearch/): PUT _index_template, HEAD and PUT
 * of the index, POST _bulk (one item per action, each decided by `bulkItem`), _search,
 * _refresh and _count. `override` answers any request first (errors, hangs). It keeps the
 * documents it accepted, and counts the _bulk requests it is serving at once.
 */

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface BulkAction {
  id: string;
  source: Record<string, unknown>;
}

export interface Reply {
  status?: number;
  body?: string | object;
  contentType?: string;
  /** Never answer. */
  hang?: boolean;
}

/** What a _bulk item answers: created, refused for its content, or rejected as busy. */
export type ItemVerdict = 'created' | 'mapper' | 'rejected';

export interface FakeNode {
  url: string;
  requests: SeenRequest[];
  /** Every _bulk request's actions, in arrival order. */
  bulks: BulkAction[][];
  /** Documents accepted, by _id (a later write replaces). */
  docs: Map<string, Record<string, unknown>>;
  templates: Map<string, unknown>;
  indexExists: boolean;
  /** Most _bulk requests served at once. */
  maxBulkInFlight: number;
  bulkLatencyMs: number;
  bulkItem: (action: BulkAction, seen: number) => ItemVerdict;
  search: (body: unknown) => Reply;
  override: (req: SeenRequest) => Reply | undefined;
  close(): Promise<void>;
}

const OS = 'opensearch';

function send(res: ServerResponse, r: Reply): void {
  const body = typeof r.body === 'string' || r.body === undefined ? (r.body ?? '') : JSON.stringify(r.body);
  const type =
    r.contentType ?? (typeof r.body === 'object' ? 'application/json; charset=UTF-8' : 'text/plain; charset=UTF-8');
  res.writeHead(r.status ?? 200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const itemFixture = (verdict: ItemVerdict): Record<string, unknown> =>
  jsonFixture(
    OS,
    verdict === 'created'
      ? 'bulk-item-created.json'
      : verdict === 'mapper'
        ? 'bulk-item-mapper-error.json'
        : 'bulk-item-rejected.json',
  ) as Record<string, unknown>;

/** The actions of an NDJSON _bulk body (index actions: an action line, then the source). */
export function parseBulk(body: string): BulkAction[] {
  const lines = body.split('\n');
  if (lines.pop() !== '') throw new Error('a _bulk body must end with a newline');
  const out: BulkAction[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const action = JSON.parse(defined(lines[i], `action line ${i + 1}`)) as { index: { _id: string } };
    const source = JSON.parse(defined(lines[i + 1], `source line ${i + 2}`)) as Record<string, unknown>;
    out.push({ id: action.index._id, source });
  }
  return out;
}

export async function startFakeNode(options: { index?: string } = {}): Promise<FakeNode> {
  const index = options.index ?? 'scout-pages';
  let bulkInFlight = 0;
  const node = {
    requests: [],
    bulks: [],
    docs: new Map(),
    templates: new Map(),
    indexExists: false,
    maxBulkInFlight: 0,
    bulkLatencyMs: 0,
    bulkItem: () => 'created',
    search: () => ({ body: fixture(OS, 'search.json'), contentType: 'application/json' }),
    override: () => undefined,
  } as unknown as FakeNode;
  const seenPerId = new Map<string, number>();

  function answer(req: SeenRequest, res: ServerResponse): void {
    const forced = node.override(req);
    if (forced) {
      if (!forced.hang) send(res, forced);
      return;
    }
    const { method, path } = req;
    const bare = defined(path.split('?')[0], 'the path before any query');
    if (method === 'PUT' && bare.startsWith('/_index_template/')) {
      node.templates.set(decodeURIComponent(bare.slice('/_index_template/'.length)), JSON.parse(req.body));
      send(res, { body: jsonFixture(OS, 'acknowledged.json') as object });
      return;
    }
    if (bare === `/${index}` && method === 'HEAD') {
      res.writeHead(node.indexExists ? 200 : 404, {
        'content-type': 'application/json; charset=UTF-8',
        'content-length': '0',
      });
      return void res.end();
    }
    if (bare === `/${index}` && method === 'PUT') {
      if (node.indexExists) {
        send(res, { status: 400, body: jsonFixture(OS, 'error-400-exists.json') as object });
        return;
      }
      node.indexExists = true;
      send(res, { body: jsonFixture(OS, 'create-index.json') as object });
      return;
    }
    if (bare === `/${index}/_bulk` && method === 'POST') {
      const actions = parseBulk(req.body);
      node.bulks.push(actions);
      bulkInFlight += 1;
      node.maxBulkInFlight = Math.max(node.maxBulkInFlight, bulkInFlight);
      const items = actions.map((a) => {
        const seen = (seenPerId.get(a.id) ?? 0) + 1;
        seenPerId.set(a.id, seen);
        const verdict = node.bulkItem(a, seen);
        if (verdict === 'created') node.docs.set(a.id, a.source);
        return { index: { ...itemFixture(verdict), _index: index, _id: a.id } };
      });
      const body = {
        took: 3,
        errors: items.some((i) => ((i.index as Record<string, unknown>).status as number) >= 300),
        items,
      };
      setTimeout(() => {
        bulkInFlight -= 1;
        send(res, { body });
      }, node.bulkLatencyMs);
      return;
    }
    if (bare === `/${index}/_search` && method === 'POST') {
      send(res, node.search(JSON.parse(req.body)));
      return;
    }
    if (bare === `/${index}/_refresh` && method === 'POST') {
      send(res, { body: jsonFixture(OS, 'refresh.json') as object });
      return;
    }
    if (bare === `/${index}/_count` && method === 'GET') {
      send(res, {
        body: { count: node.docs.size, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } },
      });
      return;
    }
    send(res, { status: 404, body: jsonFixture(OS, 'error-404-index.json') as object });
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      node.requests.push(seen);
      answer(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  node.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return node;
}

/** A URL on which nothing listens (a node that is down). */
export async function deadNodeUrl(): Promise<string> {
  const n = await startFakeNode();
  await n.close();
  return n.url;
}

/** Requests of one kind, e.g. `of(node, 'POST', '/_bulk')`. */
export const requestsTo = (node: FakeNode, method: string, pathEnd: string): SeenRequest[] =>
  node.requests.filter((r) => r.method === method && defined(r.path.split('?')[0], 'a path').endsWith(pathEnd));
