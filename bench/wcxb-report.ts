/**
 * The tables bench:extract prints for a WCXB set: mean word F1 per page type for each
 * extractor side by side (the table), then each extractor's detail per type
 * (precision, recall, the `with` and `without` snippet rates, pages with no words), and,
 * with --ablation, F1 per type with each rule off.
 */
import type { WcxbSummary } from './wcxb-metric.ts';

export type ByType = [string, WcxbSummary][];

const signed = (d: number) => `${d >= 0 ? '+' : ''}${d.toFixed(4)}`;
/** Types widen the columns: `documentation` is 13 characters. */
const width = (types: string[]) => Math.max(10, ...types.map((t) => t.length));
const line = (label: string, cells: string[], w: number) =>
  [label.padEnd(18), ...cells.map((c) => c.padStart(w))].join(' ');
/** A type with no pages in this split has no mean: a dash, not a misleading 0. */
const f1Cell = (s: WcxbSummary) => (s.pages === 0 ? '-' : s.f1.toFixed(4));

/** Rows of extractors, columns `all` then each type: mean F1, with the first minus the second. */
export function f1ByTypeTable(runs: { name: string; byType: ByType }[]): string[] {
  const first = runs[0];
  if (first === undefined) return [];
  const types = first.byType.map(([t]) => t);
  const w = width(types);
  const out = [
    line('mean word F1', types, w),
    line(
      'pages',
      first.byType.map(([, s]) => String(s.pages)),
      w,
    ),
    ...runs.map((r) =>
      line(
        r.name,
        r.byType.map(([, s]) => f1Cell(s)),
        w,
      ),
    ),
  ];
  const second = runs[1];
  if (second !== undefined) {
    out.push(
      line(
        `${first.name} - ${second.name}`,
        first.byType.map(([, a], i) => {
          const b = second.byType[i]?.[1];
          return a.pages === 0 || b === undefined ? '-' : signed(a.f1 - b.f1);
        }),
        w,
      ),
    );
  }
  return out;
}

/** One extractor's figures per type, one row each. */
export function detailByTypeTable(name: string, byType: ByType): string[] {
  const head = ['pages', 'F1', 'precision', 'recall', 'with', 'without', 'empty'];
  const w = width(byType.map(([t]) => t));
  const row = (type: string, s: WcxbSummary) =>
    [
      type.padEnd(w),
      ...(s.pages === 0
        ? [String(0), '-', '-', '-', '-', '-', '-']
        : [
            String(s.pages),
            s.f1.toFixed(4),
            s.precision.toFixed(4),
            s.recall.toFixed(4),
            `${(100 * s.withRate).toFixed(1)}%`,
            `${(100 * s.withoutRate).toFixed(1)}%`,
            String(s.empty),
          ]),
    ]
      .map((c, i) => (i === 0 ? c : c.padStart(10)))
      .join(' ');
  return [
    `${name} per page type: mean F1, precision, recall; share of \`with\` snippets found, of \`without\` found (lower is better); pages with no words`,
    [`type`.padEnd(w), ...head.map((h) => h.padStart(10))].join(' '),
    ...byType.map(([t, s]) => row(t, s)),
  ];
}

/** Ablation: a row per rule, mean F1 per type with that rule off and its change from all on. */
export function ablationByTypeTable(setName: string, full: ByType, rules: [string, ByType][]): string[] {
  const types = full.map(([t]) => t);
  const w = Math.max(width(types), 17);
  const cell = (s: WcxbSummary, base: WcxbSummary | undefined) =>
    s.pages === 0 || base === undefined ? '-' : `${s.f1.toFixed(4)} (${signed(s.f1 - base.f1)})`;
  return [
    `\nablation on ${setName} per page type: mean F1 with one rule off (change from every rule on; negative = the rule helps)`,
    line('rule', types, w),
    line(
      '(all on)',
      full.map(([, s]) => f1Cell(s)),
      w,
    ),
    ...rules.map(([rule, byType]) =>
      line(
        rule,
        byType.map(([, s], i) => cell(s, full[i]?.[1])),
        w,
      ),
    ),
  ];
}
