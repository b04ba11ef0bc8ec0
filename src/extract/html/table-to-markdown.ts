/**
 * GFM tables for data tables. turndown-plugin-gfm keeps any table without a `th` header row
 * as raw HTML; here every data table becomes a pipe table (its first row is the header, as
 * GFM requires one) and layout tables (nested tables, one column, cells holding
 * paragraphs or headings) fall through to Turndown's block handling.
 */

import { joinLines } from '../text-scan.ts';
import { must } from '../../domain/must.ts';

const BLOCKY = 'P,H1,H2,H3,H4,H5,H6,TABLE,UL,OL,BLOCKQUOTE,PRE';
const MAX_CELL_CHARS = 400;
/**
 * Empty cells padding may add, beyond one per real cell: a pipe table pads every row to
 * the widest, so one row of 10,000 cells over 60,000 short rows (a 1 MB page) would
 * render 600 million cells. Such a table is rendered as blocks instead.
 */
const MAX_EXTRA_PADDING = 1000;

function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (let c = table.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.tagName === 'TR') rows.push(c);
    else if (c.tagName === 'THEAD' || c.tagName === 'TBODY' || c.tagName === 'TFOOT') {
      for (let r = c.firstElementChild; r !== null; r = r.nextElementSibling) if (r.tagName === 'TR') rows.push(r);
    }
  }
  return rows;
}

function cells(row: Element): Element[] {
  const out: Element[] = [];
  for (let c = row.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.tagName === 'TD' || c.tagName === 'TH') out.push(c);
  }
  return out;
}

function span(cell: Element): number {
  const n = Number.parseInt(cell.getAttribute('colspan') ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 50) : 1;
}

const verdicts = new WeakMap<Element, boolean>();

/** A table of data (rendered as GFM) rather than a layout grid. */
export function isDataTable(table: Element): boolean {
  const known = verdicts.get(table);
  if (known !== undefined) return known;
  const rows = ownRows(table);
  let maxCols = 0;
  let slots = 0;
  let ok = rows.length > 0;
  for (const row of rows) {
    if (!ok) break;
    let cols = 0;
    for (const cell of cells(row)) {
      cols += span(cell);
      if (cell.querySelector(BLOCKY) !== null || (cell.textContent ?? '').length > MAX_CELL_CHARS) ok = false;
    }
    maxCols = Math.max(maxCols, cols);
    slots += cols;
  }
  const result = ok && maxCols >= 2 && maxCols * rows.length <= 2 * slots + MAX_EXTRA_PADDING;
  verdicts.set(table, result);
  return result;
}

function escapeCell(markdown: string): string {
  return joinLines(markdown).replace(/\|/g, '\\|').trim();
}

/** Renders a data table; `convert` turns one cell's element into inline markdown. */
export function tableToMarkdown(table: Element, convert: (cell: Element) => string): string {
  const rows = ownRows(table).map((row) =>
    cells(row).flatMap((cell) => [escapeCell(convert(cell)), ...Array<string>(span(cell) - 1).fill('')]),
  );
  // A loop, not Math.max(...rows): spreading a hundred thousand rows overflows the stack.
  const width = rows.reduce((widest, r) => Math.max(widest, r.length), 0);
  const line = (r: string[]): string => `| ${[...r, ...Array<string>(width - r.length).fill('')].join(' | ')} |`;
  const caption = table.querySelector('caption');
  const head = caption ? `${escapeCell(caption.textContent ?? '')}\n\n` : '';
  const [first, ...rest] = rows;
  const sep = `| ${Array<string>(width).fill('---').join(' | ')} |`;
  // isDataTable, which let this table here, found rows in it.
  return `\n\n${head}${[line(must(first, "a data table's first row")), sep, ...rest.map(line)].join('\n')}\n\n`;
}
