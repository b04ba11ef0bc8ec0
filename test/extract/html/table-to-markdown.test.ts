import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/extract/html/html-to-markdown.ts';
import { isDataTable, tableToMarkdown } from '../../../src/extract/html/table-to-markdown.ts';

function table(html: string): Element {
  return parseHTML(`<html><body>${html}</body></html>`).document.querySelector('table') as unknown as Element;
}

describe('data tables', () => {
  it('renders a pipe table, padding short rows and joining lines inside cells', () => {
    const el = table('<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td>x\n  y</td><td>p | q</td></tr></table>');
    expect(isDataTable(el)).toBe(true);
    expect(htmlToMarkdown(el.parentElement as Element)).toBe(
      '| a | b | c |\n| --- | --- | --- |\n| x y | p \\| q |  |',
    );
  });

  it('treats a table that padding would blow up as layout', () => {
    // One row of 10,000 cells over 60,000 short rows would render 600 million cells
    // (a RangeError after half a minute, which became a 500).
    expect(isDataTable(table(`<table><tr>${'<td>a'.repeat(10_000)}${'<tr><td>a<td>b'.repeat(2_000)}</table>`))).toBe(
      false,
    );
    expect(isDataTable(table(`<table><tr>${'<td>a'.repeat(30)}${'<tr><td>a<td>b'.repeat(20)}</table>`))).toBe(true);
  });

  // About 1.5 s on a quiet machine, 5 s seen on a 2-core machine loaded ten times over; the
  // limit is far above both (issue 24). What it guards against is a RangeError, not slowness.
  it('renders a table of 140,000 rows without spreading them into Math.max', { timeout: 30_000 }, () => {
    // Math.max(...rows) threw RangeError (call stack) past about 125,000 rows: a 500.
    const el = table('<table></table>');
    const row = (el.ownerDocument as Document).createElement('tr');
    row.appendChild((el.ownerDocument as Document).createElement('td')).textContent = 'a';
    for (let i = 0; i < 140_000; i += 1) el.appendChild(row.cloneNode(true));
    const markdown = tableToMarkdown(el, (cell) => cell.textContent ?? '');
    expect(markdown.trim().split('\n')).toHaveLength(140_001);
  });
});
