import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { DocumentRow } from '../store/index-rows.ts';
import { checkDocument } from './index-document.ts';
import type { LocalIndexWriter } from './local-index-api.ts';

/** Rows written per transaction: big enough to amortise commits, small enough to stream. */
const BATCH = 1000;

export interface ImportResult {
  imported: number;
  skipped: number;
}

/**
 * Streams a JSONL file into the index: one `{url, title, content, published_date?, country?,
 * language?}` object a line. A bad line (invalid JSON, a missing or empty field, a url that
 * is not http(s), an unparseable date) is reported through `onBadLine` with its 1-based line
 * number and skipped; blank lines are ignored. Re-importing a url replaces it; within one
 * file the last line for a url wins. Rows are written in batches, so a failure part-way
 * leaves the earlier batches in place.
 */
export async function importJsonl(
  index: Pick<LocalIndexWriter, 'upsertRows'>,
  file: string,
  onBadLine: (lineNo: number, reason: string) => void,
): Promise<ImportResult> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let batch: DocumentRow[] = [];
  let lineNo = 0;
  let imported = 0;
  let skipped = 0;
  for await (const raw of lines) {
    lineNo++;
    const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    const reason = parseLine(line, batch);
    if (reason !== undefined) {
      skipped++;
      onBadLine(lineNo, reason);
      continue;
    }
    if (batch.length >= BATCH) {
      imported += await index.upsertRows(batch);
      batch = [];
    }
  }
  if (batch.length > 0) imported += await index.upsertRows(batch);
  return { imported, skipped };
}

/** Appends the line's row to `batch`, or returns why the line is refused. */
function parseLine(line: string, batch: DocumentRow[]): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return `invalid JSON (${(e as Error).message})`;
  }
  const checked = checkDocument(value);
  if ('reason' in checked) return checked.reason;
  batch.push(checked.row);
  return undefined;
}
