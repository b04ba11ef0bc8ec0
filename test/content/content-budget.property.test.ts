import { countTokens as reference } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createContentStage } from '../../src/content/content-stage.ts';
import { DomainError } from '../../src/domain/errors.ts';
import type { ProviderResult, SearchQuery } from '../../src/search/search-types.ts';
import { defined } from '../helpers/defined.ts';

/**
 * max_content_tokens as a property: over many random budgets (100..32000) and random result
 * sets (pages of every size and script, failures, stored texts, snippets), the tokens the
 * response carries never pass the budget, results keep their order, and each raw_content
 * is the start of its page. Pages come from memory here so the runs stay fast; the HTTP
 * path is covered in content-stage.test.ts.
 */

const tokens = (text: string): number => reference(text, { disallowedSpecial: new Set() });

let seed = 20240611;
const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => defined(xs[Math.floor(rand() * xs.length)], 'a picked item');
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

const WORDS = [
  'alpha',
  'glacier',
  'survey',
  'data',
  'model',
  'café',
  'naïve',
  'Zürich',
  '東京都',
  'データ',
  '🙂',
  '<|endoftext|>',
  'x_y',
  '1,234.5',
  '—',
  '[link](https://e.test/a)',
];

function paragraph(): string {
  const kind = rand();
  if (kind < 0.08)
    return `\`\`\`py\n${Array.from({ length: int(1, 30) }, (_, i) => `v${i} = ${i}  # ${pick(WORDS)}`).join('\n')}\n\`\`\``;
  if (kind < 0.16) return Array.from({ length: int(1, 12) }, () => `- ${pick(WORDS)} ${pick(WORDS)}`).join('\n');
  if (kind < 0.2)
    return (
      '| a | b |\n|---|---|\n' +
      Array.from({ length: int(1, 8) }, () => `| ${pick(WORDS)} | ${int(0, 99)} |`).join('\n')
    );
  const sentences = Array.from(
    { length: int(1, 12) },
    () => `${Array.from({ length: int(1, 30) }, () => pick(WORDS)).join(' ')}${pick(['.', '!', '?', '。', ''])}`,
  );
  return sentences.join(' ');
}

function page(maxChars: number): string {
  const parts: string[] = [];
  let size = 0;
  const target = int(0, maxChars);
  while (size < target) {
    const p = paragraph();
    parts.push(p);
    size += p.length + 2;
  }
  return parts.join(pick(['\n\n', '\n\n\n', '\n \n']));
}

const POOL = Array.from({ length: 40 }, (_, i) => page(i % 4 === 0 ? 60_000 : 8_000));

const query = (depth: SearchQuery['depth'], maxContentTokens: number): SearchQuery => ({
  query: pick(['glacier survey', 'café Zürich', '東京都 データ', 'model data alpha', '🙂']),
  maxResults: 20,
  includeDomains: [],
  excludeDomains: [],
  depth,
  maxContentTokens,
});

function resultSet(): { results: ProviderResult[]; pages: Map<string, string | null> } {
  const pages = new Map<string, string | null>();
  const results = Array.from({ length: int(1, 20) }, (_, i) => {
    const url = `https://r${i}.test/${int(0, 1e6)}`;
    const text = pick(POOL);
    const r: ProviderResult = { title: `r${i}`, url, content: page(600) || 'x' };
    if (rand() < 0.3) r.extraSnippets = Array.from({ length: int(1, 4) }, () => page(400) || 'y');
    const fate = rand();
    if (fate < 0.15) pages.set(url, null);
    else if (fate < 0.3) r.rawContent = text;
    else pages.set(url, text);
    return r;
  });
  return { results, pages };
}

describe('max_content_tokens (property)', () => {
  it('never lets raw_content of an advanced response pass the budget, and never reorders', async () => {
    let cut = 0;
    let whole = 0;
    for (let run = 0; run < 80; run += 1) {
      const budget = int(100, 32_000);
      const { results, pages } = resultSet();
      const stage = createContentStage({
        fetchPage: async (url) => {
          const text = pages.get(url);
          if (text === null || text === undefined) throw new DomainError('upstream', 'origin answered 404');
          return { content: text };
        },
      });
      const out = await stage.apply(query('advanced', budget), results);
      expect(out.map((r) => r.url)).toEqual(results.map((r) => r.url));
      const used = out.reduce((sum, r) => sum + tokens(r.rawContent ?? ''), 0);
      expect(used).toBeLessThanOrEqual(budget);
      for (const [i, r] of out.entries()) {
        if (r.rawContent === undefined) continue;
        const given = defined(results[i], `result ${i}`);
        const source = (given.rawContent ?? pages.get(r.url) ?? '').trim();
        // A prefix of the page, except for a code fence the cut closed.
        const body = r.rawContent.replace(/\n(`{3,}|~{3,})$/, '');
        expect(source.startsWith(body) || source.startsWith(r.rawContent)).toBe(true);
        if (r.rawContent === source) whole += 1;
        else cut += 1;
        expect(r.content).toBe(given.content);
        expect((r.extraSnippets ?? []).length).toBeLessThanOrEqual(Math.max(3, given.extraSnippets?.length ?? 0));
      }
    }
    // The runs exercised both sides: pages that fit whole and pages that had to be cut.
    expect(cut).toBeGreaterThan(50);
    expect(whole).toBeGreaterThan(50);
  });

  it('bounds content plus extra_snippets of a basic response by the budget', async () => {
    const stage = createContentStage({ fetchPage: async () => ({ content: '' }) });
    for (let run = 0; run < 120; run += 1) {
      const budget = int(100, 32_000) >> int(0, 6);
      const { results } = resultSet();
      const out = await stage.apply(query('basic', Math.max(100, budget)), results);
      expect(out.map((r) => r.url)).toEqual(results.map((r) => r.url));
      const used = out.reduce(
        (sum, r) => sum + tokens(r.content) + (r.extraSnippets ?? []).reduce((t, s) => t + tokens(s), 0),
        0,
      );
      expect(used).toBeLessThanOrEqual(Math.max(100, budget));
      expect(out.every((r) => r.rawContent === undefined)).toBe(true);
    }
  });
});
