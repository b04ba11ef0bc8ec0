import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScoutConfig } from '../../src/scout-settings.ts';
import { checkDocument } from '../../src/index/index-document.ts';
import type { DocumentRow } from '../../src/store/index-rows.ts';
import { B, K1 } from '../../src/index/ranker/bm25.ts';
import { STOP_WORDS } from '../../src/content/stop-words.ts';
import {
  BulkWriter,
  type BulkItem,
  type BulkWriterOptions,
  type ItemOutcome,
} from '../../src/providers/opensearch/bulk-writer.ts';
import { ClusterClient } from '../../src/providers/opensearch/cluster-client.ts';
import { openSearchConnection } from '../../src/providers/opensearch/connection.ts';
import { ensureIndex, indexTemplate, TEMPLATE_VERSION } from '../../src/providers/opensearch/index-template.ts';
import { defined } from '../helpers/defined.ts';
import { deadNodeUrl, requestsTo, startFakeNode, type FakeNode } from './opensearch-fixture.ts';
import { jsonFixture } from './mock-upstream.ts';

const OS = 'opensearch';
const FIXED = new Date('2025-01-08T12:00:00.123Z');

const nodes: FakeNode[] = [];
async function node(): Promise<FakeNode> {
  const n = await startFakeNode();
  nodes.push(n);
  return n;
}
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.close()));
});

function row(i: number, over: Record<string, unknown> = {}): DocumentRow {
  const checked = checkDocument({
    url: `https://docs.example.com/page/${i}`,
    title: `Page ${i}`,
    content: `Lighthouse keeping, part ${i}.`,
    ...over,
  });
  if ('reason' in checked) throw new Error(checked.reason);
  return checked.row;
}

const client = (urls: string[], env: Record<string, string> = {}) =>
  new ClusterClient(openSearchConnection(loadScoutConfig({ SCOUT_OPENSEARCH_URL: urls.join(','), ...env }), 'test'));

interface Harness {
  writer: BulkWriter;
  outcomes: [BulkItem['ref'], ItemOutcome][];
  sleeps: number[];
}

/** Options over the harness's own; `prepare: undefined` leaves out its prepare (ensuring the index). */
type HarnessOptions = Partial<Omit<BulkWriterOptions, 'prepare'>> & {
  prepare?: BulkWriterOptions['prepare'] | undefined;
};

function writer(urls: string[], o: HarnessOptions = {}): Harness {
  const outcomes: Harness['outcomes'] = [];
  const sleeps: number[] = [];
  const c = o.client ?? client(urls);
  const { prepare, ...given } =
    'prepare' in o ? o : { ...o, prepare: () => ensureIndex(c, {}, AbortSignal.timeout(5000)) };
  const w = new BulkWriter({
    client: c,
    maxDocs: 500,
    maxBytes: 5 * 1024 * 1024,
    maxInFlight: 2,
    ...(prepare === undefined ? {} : { prepare }),
    onOutcome: (item, outcome) => outcomes.push([item.ref, outcome]),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => FIXED,
    ...given,
  });
  return { writer: w, outcomes, sleeps };
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const bulkSizes = (n: FakeNode): number[] => n.bulks.map((b) => b.length);

describe('bulk writer: requests', () => {
  it('sends NDJSON index actions with a stable id from the url and the document as Scout indexes it', async () => {
    const n = await node();
    const { writer: w } = writer([n.url]);
    await w.add({
      ref: 1,
      row: row(1, {
        url: 'https://WWW.Docs.Example.com:443/a',
        published_date: '2024-03-05T10:00:00+02:00',
        country: 'nl',
        language: 'en',
      }),
    });
    await w.add({ ref: 2, row: row(2) });
    expect(await w.close()).toEqual({ indexed: 2, failed: 0 });

    const req = defined(requestsTo(n, 'POST', '/_bulk')[0], 'a _bulk request');
    expect(req.path).toBe('/scout-pages/_bulk');
    expect(req.headers['content-type']).toBe('application/x-ndjson');
    const lines = req.body.split('\n');
    const line = (i: number): unknown => JSON.parse(defined(lines[i], `line ${i + 1}`));
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    expect(line(0)).toEqual({ index: { _id: sha256('https://www.docs.example.com/a') } });
    expect(line(1)).toEqual({
      url: 'https://www.docs.example.com/a',
      title: 'Page 1',
      content: 'Lighthouse keeping, part 1.',
      domain: 'docs.example.com',
      domain_ancestors: ['docs.example.com', 'example.com', 'com'],
      published_date: '2024-03-05T08:00:00Z',
      country: 'NL',
      language: 'en',
      source: 'import',
      indexed_at: '2025-01-08T12:00:00Z',
    });
    // Absent optional fields are left out, so `exists` (the country filter) means "has one".
    expect(Object.keys(line(3) as object)).toEqual([
      'url',
      'title',
      'content',
      'domain',
      'domain_ancestors',
      'source',
      'indexed_at',
    ]);
  });

  it('batches by document count and by bytes; a document larger than a batch goes alone', async () => {
    const n = await node();
    // One request at a time, so they arrive in the order they were made.
    const byCount = writer([n.url], { maxDocs: 3, maxInFlight: 1 });
    for (let i = 0; i < 7; i++) await byCount.writer.add({ ref: i, row: row(i) });
    await byCount.writer.close();
    expect(bulkSizes(n)).toEqual([3, 3, 1]);

    n.bulks.length = 0;
    const oneDocBytes = Buffer.byteLength(
      defined(n.requests.filter((r) => r.path.endsWith('/_bulk'))[2], 'a third _bulk request').body,
    );
    const bySize = writer([n.url], { maxBytes: oneDocBytes * 2 + 10, maxInFlight: 1 });
    await bySize.writer.add({ ref: 'big', row: row(100, { content: 'x'.repeat(oneDocBytes * 3) }) });
    for (let i = 0; i < 5; i++) await bySize.writer.add({ ref: i, row: row(i) });
    await bySize.writer.close();
    expect(bulkSizes(n)).toEqual([1, 2, 2, 1]);
  });

  it('never has more than maxInFlight requests out, and uses them', async () => {
    const n = await node();
    n.bulkLatencyMs = 25;
    const { writer: w } = writer([n.url], { maxDocs: 2, maxInFlight: 3 });
    for (let i = 0; i < 40; i++) await w.add({ ref: i, row: row(i) });
    expect(await w.close()).toEqual({ indexed: 40, failed: 0 });
    expect(n.bulks).toHaveLength(20);
    expect(n.maxBulkInFlight).toBe(3);
  });

  it('makes the producer wait while every slot is busy (back-pressure)', async () => {
    const n = await node();
    n.bulkLatencyMs = 60;
    const { writer: w } = writer([n.url], { maxDocs: 1, maxInFlight: 1 });
    await w.prepare();
    const started = performance.now();
    await w.add({ ref: 1, row: row(1) });
    await w.add({ ref: 2, row: row(2) });
    // The second add could only buffer and send once the first request came back.
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    await w.close();
    expect(n.maxBulkInFlight).toBe(1);
  });

  it('puts the index template and creates the index once, before the first request', async () => {
    const n = await node();
    const { writer: w } = writer([n.url], { maxDocs: 2 });
    await w.prepare();
    for (let i = 0; i < 9; i++) await w.add({ ref: i, row: row(i) });
    await w.close();
    expect(n.requests.slice(0, 3).map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /_index_template/scout-pages',
      'HEAD /scout-pages',
      'PUT /scout-pages',
    ]);
    expect(requestsTo(n, 'PUT', '/_index_template/scout-pages')).toHaveLength(1);
    expect(requestsTo(n, 'POST', '/_bulk')).toHaveLength(5);

    // A later run: the template is put again (same body), the existing index is kept.
    const again = writer([n.url]);
    await again.writer.prepare();
    expect(n.requests.slice(-2).map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /_index_template/scout-pages',
      'HEAD /scout-pages',
    ]);
  });
});

describe('bulk writer: errors', () => {
  it("reports each refused item with its ref and the cluster's reason, and keeps the rest of the batch", async () => {
    const n = await node();
    n.bulkItem = (a) => (a.source.url === 'https://docs.example.com/page/2' ? 'mapper' : 'created');
    const h = writer([n.url]);
    for (let i = 1; i <= 3; i++) await h.writer.add({ ref: i, row: row(i) });
    expect(await h.writer.close()).toEqual({ indexed: 2, failed: 1 });
    expect(h.outcomes).toEqual([
      [1, { ok: true }],
      [
        2,
        {
          ok: false,
          reason:
            "refused by OpenSearch (400 mapper_parsing_exception: failed to parse field [country] of type [long] in document with id ''. Preview of field's value: 'NL' (caused by illegal_argument_exception: For input string: \"NL\"))",
        },
      ],
      [3, { ok: true }],
    ]);
    expect([...n.docs.values()].map((d) => d.url)).toEqual([
      'https://docs.example.com/page/1',
      'https://docs.example.com/page/3',
    ]);
  });

  it('sends again only the items rejected as busy (429), after a backoff, until they are taken', async () => {
    const n = await node();
    // Pages 2 and 4 are rejected on their first two attempts.
    n.bulkItem = (a, seen) => (/\/page\/[24]$/.test(String(a.source.url)) && seen <= 2 ? 'rejected' : 'created');
    const h = writer([n.url]);
    for (let i = 1; i <= 5; i++) await h.writer.add({ ref: i, row: row(i) });
    expect(await h.writer.close()).toEqual({ indexed: 5, failed: 0 });
    expect(bulkSizes(n)).toEqual([5, 2, 2]);
    expect(n.bulks[1]?.map((a) => a.source.url)).toEqual([
      'https://docs.example.com/page/2',
      'https://docs.example.com/page/4',
    ]);
    expect(h.sleeps).toEqual([500, 1000]);
    expect(n.docs.size).toBe(5);
  });

  it.each([
    ['OpenSearch', 'error-429.json'],
    ['Elasticsearch 8', 'error-429-es.json'],
  ])('retries a whole request the cluster rejects with 429 (%s shape) with exponential backoff', async (_, file) => {
    const n = await node();
    let rejections = 2;
    n.override = (r) =>
      r.path.endsWith('/_bulk') && rejections-- > 0
        ? { status: 429, body: jsonFixture(OS, file) as object }
        : undefined;
    const h = writer([n.url]);
    for (let i = 1; i <= 3; i++) await h.writer.add({ ref: i, row: row(i) });
    expect(await h.writer.close()).toEqual({ indexed: 3, failed: 0 });
    expect(requestsTo(n, 'POST', '/_bulk')).toHaveLength(3);
    expect(h.sleeps).toEqual([500, 1000]);
  });

  it('gives up on a batch still rejected after every attempt, naming why, and goes on with the next', async () => {
    const n = await node();
    n.bulkItem = (a) => (a.source.url === 'https://docs.example.com/page/1' ? 'rejected' : 'created');
    const h = writer([n.url], { attempts: 3, maxDocs: 1, maxInFlight: 1 });
    await h.writer.add({ ref: 1, row: row(1) });
    await h.writer.add({ ref: 2, row: row(2) });
    expect(await h.writer.close()).toEqual({ indexed: 1, failed: 1 });
    expect(h.outcomes[0]?.[1]).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^refused by OpenSearch \(429 rejected_execution_exception: rejected execution of primary operation .*\), still rejected after 3 attempts$/,
      ),
    });
    expect(h.sleeps).toEqual([500, 1000]);
    expect(h.writer.fatal).toBeUndefined();
  });

  it('reports a whole request the cluster refuses for every item of it', async () => {
    const n = await node();
    n.override = (r) =>
      r.path.endsWith('/_bulk')
        ? {
            status: 400,
            body: {
              error: {
                root_cause: [],
                type: 'illegal_argument_exception',
                reason: 'The bulk request must be terminated by a newline [\\n]',
              },
              status: 400,
            },
          }
        : undefined;
    const h = writer([n.url]);
    await h.writer.add({ ref: 7, row: row(7) });
    await h.writer.add({ ref: 8, row: row(8) });
    expect(await h.writer.close()).toEqual({ indexed: 0, failed: 2 });
    expect(h.outcomes.map(([ref, o]) => [ref, o.ok ? '' : o.reason])).toEqual([
      [
        7,
        'refused by OpenSearch (HTTP 400 illegal_argument_exception: The bulk request must be terminated by a newline [\\n])',
      ],
      [
        8,
        'refused by OpenSearch (HTTP 400 illegal_argument_exception: The bulk request must be terminated by a newline [\\n])',
      ],
    ]);
  });

  it('stops for good when the cluster refuses the credentials', async () => {
    const n = await node();
    n.override = (r) =>
      r.path.endsWith('/_bulk') ? { status: 403, body: jsonFixture(OS, 'error-403.json') as object } : undefined;
    const h = writer([n.url], { maxDocs: 1, maxInFlight: 1 });
    await h.writer.add({ ref: 1, row: row(1) });
    await h.writer.close();
    expect(h.writer.fatal?.message).toMatch(
      /^OpenSearch: HTTP 403 \(security_exception\): security_exception: no permissions for \[indices:data\/read\/search\]/,
    );
    await expect(h.writer.add({ ref: 2, row: row(2) })).rejects.toThrow(/^OpenSearch: HTTP 403/);
    expect(requestsTo(n, 'POST', '/_bulk')).toHaveLength(1);
    expect(h.outcomes).toEqual([[1, { ok: false, reason: h.writer.fatal!.message }]]);
  });

  it('stops for good when no node can be reached after every retry', async () => {
    const dead = await deadNodeUrl();
    const h = writer([dead], { attempts: 3, prepare: undefined });
    await h.writer.add({ ref: 1, row: row(1) });
    expect(await h.writer.close()).toEqual({ indexed: 0, failed: 1 });
    expect(h.writer.fatal?.message).toBe('OpenSearch unreachable after 3 attempts: network error (ECONNREFUSED)');
    expect(h.sleeps).toEqual([500, 1000]);
  });

  it('fails over to the next node for writes too', async () => {
    const n = await node();
    const h = writer([await deadNodeUrl(), n.url], { prepare: undefined });
    await h.writer.add({ ref: 1, row: row(1) });
    expect(await h.writer.close()).toEqual({ indexed: 1, failed: 0 });
    expect(h.sleeps).toEqual([]);
  });

  it('stops before writing anything when the template cannot be put', async () => {
    const n = await node();
    n.override = (r) => (r.path.startsWith('/_index_template/') ? { status: 401, body: 'Unauthorized' } : undefined);
    const h = writer([n.url]);
    await expect(h.writer.prepare()).rejects.toThrow('OpenSearch: HTTP 401 (credentials refused): Unauthorized');
    await expect(h.writer.add({ ref: 1, row: row(1) })).rejects.toThrow('OpenSearch: HTTP 401 (credentials refused)');
    expect(requestsTo(n, 'POST', '/_bulk')).toEqual([]);
  });
});

describe('bulk writer: one url written twice', () => {
  it('keeps the last line even when the first one had to be retried', async () => {
    const n = await node();
    const first = row(1, { title: 'First version' });
    const second = row(1, { title: 'Second version' });
    // The first write of the url is rejected once; the second must not overtake its retry.
    n.bulkItem = (a, seen) => (a.source.title === 'First version' && seen === 1 ? 'rejected' : 'created');
    n.bulkLatencyMs = 5;
    const h = writer([n.url], { maxDocs: 2, maxInFlight: 4 });
    await h.writer.add({ ref: 1, row: first });
    await h.writer.add({ ref: 2, row: row(2) });
    await h.writer.add({ ref: 3, row: second });
    await h.writer.add({ ref: 4, row: row(3) });
    expect(await h.writer.close()).toEqual({ indexed: 4, failed: 0 });
    expect(n.docs.get(sha256('https://docs.example.com/page/1'))?.title).toBe('Second version');
    expect(n.bulks.map((b) => b.map((a) => a.source.title))).toEqual([
      ['First version', 'Page 2'],
      ['First version'],
      ['Second version', 'Page 3'],
    ]);
  });

  it('splits a batch that would hold the same url twice', async () => {
    const n = await node();
    const h = writer([n.url]);
    await h.writer.add({ ref: 1, row: row(1, { title: 'Old' }) });
    await h.writer.add({ ref: 2, row: row(1, { title: 'New' }) });
    await h.writer.close();
    expect(bulkSizes(n)).toEqual([1, 1]);
    expect(n.docs.get(sha256('https://docs.example.com/page/1'))?.title).toBe('New');
  });
});

describe('index template', () => {
  it('analyses and ranks like the local index: porter stemming, folded diacritics, its stop words at query time, its BM25', () => {
    const t = indexTemplate('scout-pages', { shards: 3, replicas: 1 }) as {
      index_patterns: string[];
      version: number;
      template: {
        settings: { index: Record<string, unknown> };
        mappings: { dynamic: boolean; properties: Record<string, Record<string, unknown>> };
      };
    };
    expect(t.index_patterns).toEqual(['scout-pages']);
    expect(t.version).toBe(TEMPLATE_VERSION);
    const s = t.template.settings.index as {
      number_of_shards: number;
      number_of_replicas: number;
      similarity: unknown;
      analysis: {
        analyzer: { scout_text: { filter: string[] }; scout_query: { filter: string[] } };
        filter: { scout_stop: { stopwords: string[] } };
      };
    };
    expect([s.number_of_shards, s.number_of_replicas]).toEqual([3, 1]);
    expect(s.similarity).toEqual({ scout_bm25: { type: 'BM25', k1: K1, b: B } });
    expect(s.analysis.analyzer.scout_text.filter).toEqual([
      'scout_possessive',
      'lowercase',
      'asciifolding',
      'porter_stem',
    ]);
    expect(s.analysis.analyzer.scout_query.filter).toEqual([
      'scout_possessive',
      'lowercase',
      'asciifolding',
      'scout_stop',
      'porter_stem',
    ]);
    expect(new Set(s.analysis.filter.scout_stop.stopwords)).toEqual(STOP_WORDS);
    const p = t.template.mappings.properties;
    expect(t.template.mappings.dynamic).toBe(false);
    expect(p.title).toEqual({
      type: 'text',
      analyzer: 'scout_text',
      search_analyzer: 'scout_query',
      similarity: 'scout_bm25',
    });
    expect(p.content).toMatchObject({ type: 'text', similarity: 'scout_bm25', index_options: 'offsets' });
    for (const f of ['url', 'domain', 'domain_ancestors', 'country', 'language', 'source'])
      expect(p[f], f).toEqual({ type: 'keyword' });
    for (const f of ['published_date', 'indexed_at']) expect(p[f]?.type, f).toBe('date');
  });

  it('leaves shards and replicas to the cluster unless set', () => {
    const s = (indexTemplate('x') as { template: { settings: { index: object } } }).template.settings.index;
    expect(Object.keys(s).sort()).toEqual(['analysis', 'similarity']);
  });

  it('is what ensureIndex puts, and an index created meanwhile by someone else is fine', async () => {
    const n = await node();
    n.override = (r) =>
      r.method === 'PUT' && r.path === '/scout-pages'
        ? { status: 400, body: jsonFixture(OS, 'error-400-exists.json') as object }
        : undefined;
    const c = client([n.url], { SCOUT_OPENSEARCH_REPLICAS: '0' });
    expect(await ensureIndex(c, { replicas: 0 }, AbortSignal.timeout(5000))).toEqual({ created: false });
    expect(n.templates.get('scout-pages')).toEqual(
      JSON.parse(JSON.stringify(indexTemplate('scout-pages', { replicas: 0 }))),
    );
  });
});
