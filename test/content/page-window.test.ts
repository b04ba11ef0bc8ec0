import { describe, expect, it } from 'vitest';
import { keepPassages, pageWindow } from '../../src/content/page-window.ts';
import { passageSpans, rankPassages } from '../../src/content/passage-spans.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';

const page = (content: string, truncated = false): FetchResponse => ({
  request_id: 'r',
  url: 'https://example.com/a',
  final_url: 'https://example.com/b',
  title: 'T',
  content,
  chars: content.length,
  truncated,
  response_time_ms: 1,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
});

const para = (i: number, words: string) =>
  `Paragraph ${i} is about ${words}. ${'Filler words pad it out. '.repeat(16)}`;

describe('pageWindow', () => {
  it('cuts exact windows that join back into the page, each ending at a break near max_chars', () => {
    const md = Array.from({ length: 30 }, (_, i) => para(i, 'nothing in particular')).join('\n\n');
    const parts: string[] = [];
    let start: number | null = 0;
    while (start !== null) {
      const { entry } = pageWindow('u', page(md), { startIndex: start, maxChars: 1000, maxPassages: 5 });
      expect(entry.chars).toBeLessThanOrEqual(1000);
      if (entry.next_index !== null) expect(entry.content.endsWith('\n\n')).toBe(true);
      parts.push(entry.content);
      start = entry.next_index;
    }
    expect(parts.join('')).toBe(md);
  });

  it('never splits a surrogate pair at a hard cut', () => {
    const md = '😀'.repeat(600);
    const { entry } = pageWindow('u', page(md), { startIndex: 0, maxChars: 501, maxPassages: 5 });
    expect(entry.chars).toBe(500);
    expect(entry.next_index).toBe(500);
  });

  it('marks a page cut at read as truncated even when the window reaches its end', () => {
    const { entry } = pageWindow('u', page('short', true), { startIndex: 0, maxChars: 500, maxPassages: 5 });
    expect(entry).toMatchObject({ next_index: null, truncated: true, final_url: 'https://example.com/b' });
  });

  it('with a query: the best passages in page order, exact slices, joined with […] over a gap', () => {
    const md = [
      para(0, 'a volcano erupting'),
      para(1, 'bread baking'),
      para(2, 'volcano lava flows'),
      para(3, 'honey bees'),
    ].join('\n\n');
    const w = pageWindow('u', page(md), { startIndex: 0, maxChars: 200000, query: 'volcano lava', maxPassages: 2 });
    const passages = w.entry.passages ?? [];
    expect(passages.map((p) => p.text.slice(0, 11))).toEqual(['Paragraph 0', 'Paragraph 2']);
    for (const p of passages) expect(md.slice(p.start_index, p.start_index + p.chars)).toBe(p.text);
    expect(w.entry.content).toBe(`${passages[0]?.text}\n\n[…]\n\n${passages[1]?.text}`);
    // The best one alone (lava is in paragraph 2 only).
    expect(keepPassages(w, 1).passages?.map((p) => p.text.slice(0, 11))).toEqual(['Paragraph 2']);
    expect(keepPassages(w, 0)).toMatchObject({ passages: [], content: '', chars: 0 });
  });
});

describe('passageSpans / rankPassages', () => {
  it('groups short blocks and cuts a long one at sentences, every span an exact slice', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i} of a long block.`).join(' ');
    const md = `# Title\n\nA short block.\n\nAnother short one.\n\n${long}\n\n- a list item`;
    const spans = passageSpans(md);
    expect(md.slice(spans[0]?.start, spans[0]?.end)).toBe('# Title\n\nA short block.\n\nAnother short one.');
    for (const s of spans) {
      expect(s.end - s.start).toBeLessThanOrEqual(500);
      expect(md.slice(s.start, s.end).trim()).toBe(md.slice(s.start, s.end));
    }
    expect(spans.length).toBeGreaterThan(3);
    expect(rankPassages(md, 'sentence 39')[0]?.text).toContain('Sentence 39');
    expect(rankPassages(md, 'zeppelin')).toEqual([]);
  });
});
