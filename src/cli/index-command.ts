import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config/load-config.ts';
import { importJsonl } from '../index/ingest-jsonl.ts';
import { openLocalIndex, type LocalIndex } from '../index/local-index.ts';
import type { CliCommand, CliIO } from './cli-io.ts';

const USAGE = `usage: scout index <command>
  import <file.jsonl>   add or replace documents, one JSON object a line:
                        {"url", "title", "content", "published_date"?, "country"?, "language"?}
  stats [--json]        documents, domains, size and date range of the local index
The index lives at $SCOUT_DATA_DIR/index.db (default ./data/index.db).
`;

/** Bad lines printed one by one before the rest are only counted, so a bad file can't flood the terminal. */
const MAX_REPORTED = 100;

const write = (stream: NodeJS.WritableStream, text: string): void => {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
};

/** `scout index import|stats`: exit 0 when done, 1 when it could not be done, 2 on bad usage. */
export const indexCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
    write(sub === undefined ? io.stderr : io.stdout, USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'import' && rest.length === 1 && !rest[0].startsWith('-')) return withIndex(io, (i) => runImport(i, rest[0], io));
  if (sub === 'stats' && (rest.length === 0 || (rest.length === 1 && rest[0] === '--json'))) {
    return withIndex(io, (i) => runStats(i, rest[0] === '--json', io));
  }
  write(io.stderr, `scout index: unknown or incomplete command "${argv.join(' ')}"\n${USAGE}`);
  return 2;
};

async function withIndex(io: CliIO, run: (index: LocalIndex) => Promise<number>): Promise<number> {
  let index: LocalIndex;
  try {
    index = openLocalIndex(join(loadConfig(io.env).dataDir, 'index.db'));
  } catch (e) {
    write(io.stderr, `scout index: ${(e as Error).message}`);
    return 1;
  }
  try {
    return await run(index);
  } finally {
    index.close();
  }
}

async function runImport(index: LocalIndex, file: string, io: CliIO): Promise<number> {
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    write(io.stderr, `scout index import: cannot read ${file}: ${reason}`);
    return 1;
  }
  let reported = 0;
  const result = await importJsonl(index, file, (lineNo, reason) => {
    if (reported++ < MAX_REPORTED) write(io.stderr, `line ${lineNo}: ${reason}`);
  });
  if (result.skipped > MAX_REPORTED) write(io.stderr, `… and ${result.skipped - MAX_REPORTED} more bad lines`);
  if (result.imported > 0) index.optimize();
  write(
    io.stdout,
    `imported ${result.imported} documents, skipped ${result.skipped} bad lines; the index now holds ${index.count()} documents`,
  );
  return 0;
}

async function runStats(index: LocalIndex, json: boolean, io: CliIO): Promise<number> {
  const s = index.stats();
  if (json) {
    write(io.stdout, JSON.stringify(s));
    return 0;
  }
  const lines = [
    `documents  ${s.documents}`,
    `domains    ${s.domains}`,
    `size       ${(s.bytes / 1_048_576).toFixed(1)} MiB (text ${(s.textBytes / 1_048_576).toFixed(1)} MiB)`,
    `dated      ${s.dated}${s.oldest !== undefined ? ` (${s.oldest} .. ${s.newest})` : ''}`,
    `sources    ${Object.entries(s.sources).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
  ];
  write(io.stdout, lines.join('\n'));
  return 0;
}
