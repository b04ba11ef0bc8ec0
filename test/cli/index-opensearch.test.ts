import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';
import { defined } from '../helpers/defined.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import type { ScoutEnv } from '../helpers/scout-process.ts';
import { newLog, page, startSite } from '../index/crawl/crawl-fixture.ts';
import { jsonFixture } from '../providers/mock-upstream.ts';
import { requestsTo, startFakeNode, type FakeNode } from '../providers/opensearch-fixture.ts';

/** `scout index import|add|crawl|template --to opensearch` against a loopback stand-in for an OpenSearch node. */

const dirs: string[] = [];
const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function cluster(): Promise<FakeNode> {
  const n = await startFakeNode();
  closers.push(n);
  return n;
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'scout-os-cli-'));
  dirs.push(d);
  return d;
}

/** Settings pointing at `node`; the data folder must stay untouched by --to opensearch. */
const env = (node: FakeNode | undefined, extra: Record<string, string> = {}): ScoutEnv => ({
  SCOUT_DATA_DIR: join(tempDir(), 'data'),
  // One extraction worker: each loads its code at start, and these add or crawl a page or two.
  SCOUT_FETCH_WORKERS: '1',
  ...(node ? { SCOUT_OPENSEARCH_URL: node.url } : {}),
  ...extra,
});

const jsonl = (lines: string[]): string => {
  const file = join(tempDir(), 'docs.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
};

const doc = (path: string, over: Record<string, unknown> = {}): string =>
  JSON.stringify({
    url: `https://lights.example.org${path}`,
    title: `Lights ${path}`,
    content: `Lighthouse keeping ${path}`,
    ...over,
  });

const calls = (n: FakeNode): string[] => n.requests.map((r) => `${r.method} ${r.path}`);

describe('scout index import --to opensearch', () => {
  it('sends good lines in _bulk batches and reports bad lines and refused documents by line number', async () => {
    const n = await cluster();
    n.bulkItem = (a) => (String(a.source.url).endsWith('/refused') ? 'mapper' : 'created');
    const e = env(n, { SCOUT_OPENSEARCH_BULK_DOCS: '2' });
    const file = jsonl([
      doc('/one', { published_date: '2024-01-02', country: 'nl' }),
      'not json',
      JSON.stringify({ url: 'https://lights.example.org/two', title: '', content: 'x' }),
      doc('/refused'),
      '',
      doc('/three'),
    ]);
    const r = await runScout(['index', 'import', file, '--to', 'opensearch'], e);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'imported 2 documents, skipped 2 bad lines and 1 refused by OpenSearch; the OpenSearch index scout-pages now holds 2 documents\n',
    );
    const stderr = r.stderr.trim().split('\n').sort();
    expect(stderr).toHaveLength(3);
    expect(stderr[0]).toMatch(/^line 2: invalid JSON \(/);
    expect(stderr[1]).toBe('line 3: title must not be empty');
    expect(stderr[2]).toBe(
      "line 4: https://lights.example.org/refused: refused by OpenSearch (400 mapper_parsing_exception: failed to parse field [country] of type [long] in document with id ''. Preview of field's value: 'NL' (caused by illegal_argument_exception: For input string: \"NL\"))",
    );
    expect(calls(n)).toEqual([
      'PUT /_index_template/scout-pages',
      'HEAD /scout-pages',
      'PUT /scout-pages',
      'POST /scout-pages/_bulk',
      'POST /scout-pages/_bulk',
      'POST /scout-pages/_refresh',
      'GET /scout-pages/_count',
    ]);
    expect(n.bulks.map((b) => b.map((a) => a.source.url))).toEqual([
      ['https://lights.example.org/one', 'https://lights.example.org/refused'],
      ['https://lights.example.org/three'],
    ]);
    expect(defined(n.bulks[0]?.[0], 'the first action of the first bulk').source).toMatchObject({
      published_date: '2024-01-02',
      country: 'NL',
      domain: 'lights.example.org',
    });
    expect(existsSync(e.SCOUT_DATA_DIR)).toBe(false);
  });

  it('waits and retries when the cluster rejects a request as busy (429), losing nothing', async () => {
    const n = await cluster();
    let busy = 1;
    n.override = (req) =>
      req.path.endsWith('/_bulk') && busy-- > 0
        ? { status: 429, body: jsonFixture('opensearch', 'error-429.json') as object }
        : undefined;
    const r = await runScout(
      ['index', 'import', jsonl([doc('/a'), doc('/b'), doc('/c')]), '--to', 'opensearch'],
      env(n),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^imported 3 documents, skipped 0 bad lines and 0 refused by OpenSearch; .* holds 3 documents\n$/,
    );
    expect(requestsTo(n, 'POST', '/_bulk')).toHaveLength(2);
  });

  it('stops before reading the file when the cluster refuses the credentials', async () => {
    const n = await cluster();
    n.override = () => ({ status: 401, body: 'Unauthorized' });
    const r = await runScout(
      ['index', 'import', jsonl([doc('/a')]), '--to', 'opensearch'],
      env(n, { SCOUT_OPENSEARCH_USERNAME: 'scout', SCOUT_OPENSEARCH_PASSWORD: 'wrong-password' }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('scout index import: OpenSearch: HTTP 401 (credentials refused): Unauthorized\n');
    expect(r.stdout).toBe('');
    expect(calls(n)).toEqual(['PUT /_index_template/scout-pages']);
  });

  it('names the setting to set when there is no cluster, and refuses an unknown target', async () => {
    const missing = await runScout(['index', 'import', jsonl([doc('/a')]), '--to', 'opensearch'], env(undefined));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "scout index: --to opensearch writes to OpenSearch, so SCOUT_OPENSEARCH_URL must be set to the cluster's node URLs (e.g. http://localhost:9200)\n",
    );
    const bogus = await runScout(['index', 'import', jsonl([doc('/a')]), '--to', 'elastic'], env(undefined));
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(
      /^scout index import: --to must be local or opensearch, got "elastic"\nusage: scout index import <file.jsonl> \[--to local\|opensearch\]/,
    );
  });

  it('--to local is the default index, unchanged', async () => {
    const e = env(undefined);
    const r = await runScout(['index', 'import', jsonl([doc('/a')]), '--to', 'local'], e);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('imported 1 documents, skipped 0 bad lines; the index now holds 1 documents\n');
    expect(existsSync(join(e.SCOUT_DATA_DIR, 'index.db'))).toBe(true);
  });
});

describe('scout index add|crawl --to opensearch', () => {
  const ALLOW = { SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' };
  const ROBOTS_OK = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

  async function site(pages: Parameters<typeof startSite>[0]): Promise<FixtureServer> {
    const s = await startSite(pages, newLog());
    closers.push(s);
    return s;
  }

  it('add writes each fetched page to the cluster and reports the ones it refuses', async () => {
    const n = await cluster();
    n.bulkItem = (a) => (String(a.source.url).endsWith('/refused') ? 'mapper' : 'created');
    const s = await site({ '/one': page('Harbour lights'), '/refused': page('Fog signals') });
    const e = env(n, ALLOW);
    const r = await runScout(
      ['index', 'add', s.url('/one'), s.url('/refused'), '--delay-ms', '0', '--to', 'opensearch'],
      e,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`added ${s.url('/one')} — Harbour lights\n`);
    expect(r.stderr).toMatch(
      new RegExp(`^skipped ${s.url('/refused')}: refused by OpenSearch \\(400 mapper_parsing_exception: `),
    );
    const [stored] = [...n.docs.values()];
    expect(n.docs.size).toBe(1);
    expect(stored).toMatchObject({
      url: s.url('/one'),
      title: 'Harbour lights',
      domain: '127.0.0.2',
      source: 'import',
    });
    expect(String(defined(stored, 'the stored document').content)).toContain('lighthouse keeping');
    expect(requestsTo(n, 'PUT', '/_index_template/scout-pages')).toHaveLength(1);
    expect(existsSync(e.SCOUT_DATA_DIR)).toBe(false);
  });

  it('crawl writes the pages it indexes to the cluster and makes them searchable at the end', async () => {
    const n = await cluster();
    const s = await site({
      '/robots.txt': ROBOTS_OK,
      '/': page('Home', ['/a', '/b']),
      '/a': page('Page A'),
      '/b': page('Page B'),
    });
    const r = await runScout(['index', 'crawl', s.url('/'), '--delay-ms', '0', '--to', 'opensearch'], env(n, ALLOW));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/crawled 3 pages, indexed 3, skipped 0\n$/);
    expect([...n.docs.values()].map((d) => d.url).sort()).toEqual([s.url('/'), s.url('/a'), s.url('/b')]);
    expect(requestsTo(n, 'POST', '/_refresh')).toHaveLength(1);
  });

  it('a cluster that is down stops add before any page is fetched', async () => {
    const n = await cluster();
    const url = n.url;
    await n.close();
    const s = await site({ '/one': page('Harbour lights') });
    const r = await runScout(['index', 'add', s.url('/one'), '--delay-ms', '0', '--to', 'opensearch'], {
      SCOUT_DATA_DIR: join(tempDir(), 'd'),
      SCOUT_OPENSEARCH_URL: url,
      ...ALLOW,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('scout index add: OpenSearch: network error (ECONNREFUSED)\n');
    expect(s.requests).toEqual([]);
  });
});

describe('scout index template --to opensearch', () => {
  it('puts the template and creates the index, then keeps an existing one', async () => {
    const n = await cluster();
    const first = await runScout(['index', 'template', '--to', 'opensearch'], env(n));
    expect(first).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'put index template scout-pages (version 1); created index scout-pages\n',
    });
    const again = await runScout(['index', 'template', '--to', 'opensearch'], env(n));
    expect(again.stdout).toBe(
      'put index template scout-pages (version 1); index scout-pages already exists (its mappings are kept)\n',
    );
    expect(calls(n).filter((c) => c === 'PUT /scout-pages')).toHaveLength(1);
    expect(calls(n).filter((c) => c === 'PUT /_index_template/scout-pages')).toHaveLength(2);
    expect(n.templates.get('scout-pages')).toMatchObject({ index_patterns: ['scout-pages'], version: 1 });
  });

  it('--print prints the template with the configured sizes, without a cluster', async () => {
    const r = await runScout(
      ['index', 'template', '--to', 'opensearch', '--print'],
      env(undefined, { SCOUT_OPENSEARCH_INDEX: 'pages-v2', SCOUT_OPENSEARCH_REPLICAS: '0' }),
    );
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout) as {
      index_patterns: string[];
      template: { settings: { index: { number_of_replicas: number } } };
    };
    expect(t.index_patterns).toEqual(['pages-v2']);
    expect(t.template.settings.index.number_of_replicas).toBe(0);
  });

  it('needs --to opensearch', async () => {
    const r = await runScout(['index', 'template'], env(undefined));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name the cluster: --to opensearch (the local index needs no template)');
    expect(r.stderr).toContain('usage: scout index template --to opensearch [--print]');
  });
});
