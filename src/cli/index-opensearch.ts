import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Agent } from 'undici';
import { loadScoutConfig, type ScoutConfig } from '../scout-settings.ts';
import { checkDocument, type IndexDocument } from '../index/index-document.ts';
import { BulkWriter, type BulkItem, type ItemOutcome } from '../providers/opensearch/bulk-writer.ts';
import { ClusterClient, explain, ok } from '../providers/opensearch/cluster-client.ts';
import { openSearchConnection, type OpenSearchConnection } from '../providers/opensearch/connection.ts';
import { ensureIndex, indexTemplate, TEMPLATE_VERSION } from '../providers/opensearch/index-template.ts';
import { UsageError, type CliIO } from './cli-io.ts';
import { importableFile, MAX_REPORTED, write } from './index-output.ts';
import { parseFlags } from './parse-flags.ts';

/**
 * `scout index import|add|crawl --to opensearch` and `scout index template --to opensearch`:
 * the same inputs and output as with the local index, written to the OpenSearch cluster of
 * SCOUT_OPENSEARCH_URL instead (docs/opensearch.md).
 */

export type IndexTarget = 'local' | 'opensearch';

/** `--to`: local (the default) or opensearch. */
export function indexTarget(value: string | boolean | undefined): IndexTarget {
  if (value === undefined || value === 'local') return 'local';
  if (value === 'opensearch') return 'opensearch';
  throw new UsageError(`--to must be local or opensearch, got "${String(value)}"`);
}

/** Cluster calls that are not bulk writes (template, index creation, refresh, count). */
const CALL_TIMEOUT_MS = 60_000;

const USE = '--to opensearch writes to OpenSearch';

interface OpenSearchRun {
  writer: BulkWriter;
  client: ClusterClient;
  conn: OpenSearchConnection;
  config: ScoutConfig;
}

/**
 * Opens a writer on the configured cluster, puts the index template and creates the index
 * first (so a wrong URL or refused credentials stop the command before it reads or fetches
 * anything), runs `run`, then waits for every batch. Exit 1 when the cluster stopped the
 * writing for good.
 */
async function withOpenSearch(
  io: CliIO,
  sub: string,
  onOutcome: ((item: BulkItem, outcome: ItemOutcome) => void) | undefined,
  run: (o: OpenSearchRun) => Promise<number>,
): Promise<number> {
  let config: ScoutConfig;
  let conn: OpenSearchConnection;
  try {
    config = loadScoutConfig(io.env);
    conn = openSearchConnection(config, USE);
  } catch (e) {
    write(io.stderr, `scout index: ${(e as Error).message}`);
    return 1;
  }
  // Its own connection pool, closed at the end: no idle socket outlives the command.
  const agent = new Agent();
  const client = new ClusterClient(conn, { dispatcher: agent });
  const writer = new BulkWriter({
    client,
    maxDocs: config.opensearchBulkDocs,
    maxBytes: config.opensearchBulkMb * 1024 * 1024,
    maxInFlight: config.opensearchBulkInFlight,
    prepare: () => ensureIndex(client, conn, AbortSignal.timeout(CALL_TIMEOUT_MS)),
    ...(onOutcome ? { onOutcome } : {}),
  });
  try {
    try {
      await writer.prepare();
    } catch {
      write(io.stderr, `scout index ${sub}: ${writer.fatal?.message ?? 'OpenSearch could not be prepared'}`);
      return 1;
    }
    let code = await run({ writer, client, conn, config });
    await writer.close();
    if (writer.fatal) {
      write(io.stderr, `scout index ${sub}: ${writer.fatal.message}`);
      code = 1;
    }
    return code;
  } finally {
    await writer.close();
    await agent.close();
  }
}

/**
 * Makes what was written searchable now rather than at the next refresh interval (1 s by
 * default, longer on busy clusters). Best effort: the writes are in either way.
 */
async function refresh(client: ClusterClient): Promise<void> {
  await client
    .request({
      method: 'POST',
      path: `/${encodeURIComponent(client.index)}/_refresh`,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    })
    .catch(() => undefined);
}

/** Documents in the index, or undefined when the cluster would not say. */
async function count(client: ClusterClient): Promise<number | undefined> {
  try {
    const res = await client.request({
      method: 'GET',
      path: `/${encodeURIComponent(client.index)}/_count`,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const n = (res.body as { count?: unknown } | undefined)?.count;
    return ok(res) && typeof n === 'number' ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `scout index import <file> --to opensearch`: the local import's rules (one JSON object a
 * line, checkDocument's validation, bad lines reported and skipped), each good line sent in
 * `_bulk` batches; a document the cluster refuses is reported with its line number and url.
 */
export async function importToOpenSearch(file: string, io: CliIO): Promise<number> {
  if (!(await importableFile(file, io))) return 1;
  let reported = 0;
  let bad = 0;
  const report = (text: string): void => {
    if (reported++ < MAX_REPORTED) write(io.stderr, text);
  };
  const onOutcome = (item: BulkItem, outcome: ItemOutcome): void => {
    if (!outcome.ok) report(`line ${item.ref}: ${item.row.url}: ${outcome.reason}`);
  };
  return withOpenSearch(io, 'import', onOutcome, async ({ writer, client }) => {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    let lineNo = 0;
    try {
      for await (const raw of lines) {
        lineNo++;
        const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
        if (line.trim() === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (e) {
          bad++;
          report(`line ${lineNo}: invalid JSON (${(e as Error).message})`);
          continue;
        }
        const checked = checkDocument(value);
        if ('reason' in checked) {
          bad++;
          report(`line ${lineNo}: ${checked.reason}`);
          continue;
        }
        await writer.add({ ref: lineNo, row: checked.row });
      }
    } catch (e) {
      // The writer stopped for good (reported by withOpenSearch); anything else is a bug.
      if (!writer.fatal) throw e;
    } finally {
      lines.close();
    }
    const { indexed, failed } = await writer.close();
    if (reported > MAX_REPORTED) write(io.stderr, `… and ${reported - MAX_REPORTED} more bad or refused lines`);
    let held: number | undefined;
    if (!writer.fatal) {
      await refresh(client);
      held = await count(client);
    }
    write(
      io.stdout,
      `imported ${indexed} documents, skipped ${bad} bad lines and ${failed} refused by OpenSearch` +
        (held === undefined ? '' : `; the OpenSearch index ${client.index} now holds ${held} documents`),
    );
    return writer.fatal ? 1 : 0;
  });
}

/** Where `scout index add|crawl` store pages. */
export interface PageSink {
  store(doc: IndexDocument): unknown;
  /** After a crawl that stored pages: tidy the local index, or make OpenSearch's writes searchable now. */
  finish(): Promise<void>;
}

/** A PageSink on OpenSearch: each page validated like a local write and written at once, its outcome awaited. */
export function withOpenSearchSink(
  io: CliIO,
  sub: string,
  run: (sink: PageSink, config: ScoutConfig) => Promise<number>,
): Promise<number> {
  return withOpenSearch(io, sub, undefined, ({ writer, client, config }) =>
    run(
      {
        async store(doc) {
          const checked = checkDocument(doc);
          if ('reason' in checked) throw new Error(checked.reason);
          const outcome = await writer.write({ ref: checked.row.url, row: checked.row });
          if (!outcome.ok) throw new Error(outcome.reason);
        },
        finish: () => refresh(client),
      },
      config,
    ),
  );
}

/**
 * `scout index template --to opensearch [--print]`: puts Scout's index template and creates
 * the index when missing (what the writing commands do first), or only prints the template.
 */
export async function runTemplate(argv: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(argv, { to: 'string', print: 'boolean' });
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
  if (indexTarget(flags.to) !== 'opensearch')
    throw new UsageError('name the cluster: --to opensearch (the local index needs no template)');
  let config: ScoutConfig;
  try {
    config = loadScoutConfig(io.env);
  } catch (e) {
    write(io.stderr, `scout index: ${(e as Error).message}`);
    return 1;
  }
  const sizes = {
    ...(config.opensearchShards !== undefined ? { shards: config.opensearchShards } : {}),
    ...(config.opensearchReplicas !== undefined ? { replicas: config.opensearchReplicas } : {}),
  };
  if (flags.print === true) {
    write(io.stdout, JSON.stringify(indexTemplate(config.opensearchIndex, sizes), null, 2));
    return 0;
  }
  let conn: OpenSearchConnection;
  try {
    conn = openSearchConnection(config, USE);
  } catch (e) {
    write(io.stderr, `scout index: ${(e as Error).message}`);
    return 1;
  }
  const agent = new Agent();
  try {
    const { created } = await ensureIndex(
      new ClusterClient(conn, { dispatcher: agent }),
      sizes,
      AbortSignal.timeout(CALL_TIMEOUT_MS),
    );
    const index = created
      ? `created index ${conn.index}`
      : `index ${conn.index} already exists (its mappings are kept)`;
    write(io.stdout, `put index template ${conn.index} (version ${TEMPLATE_VERSION}); ${index}`);
    return 0;
  } catch (e) {
    write(io.stderr, `scout index template: OpenSearch: ${explain(e)}`);
    return 1;
  } finally {
    await agent.close();
  }
}
