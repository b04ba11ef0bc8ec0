import { describe, expect, it } from 'vitest';
import { truncateMarkdown } from '../../src/fetch/truncate.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string) => !LONE_SURROGATE.test(s);
const sentence = (i: number) => `Sentence number ${i} says something plain.`;
const paragraph = (i: number, n = 5) => Array.from({ length: n }, (_, k) => sentence(i * 10 + k)).join(' ');

describe('truncateMarkdown', () => {
  it('leaves text within the cap untouched', () => {
    expect(truncateMarkdown('# Title\n\nBody.', 500)).toEqual({ content: '# Title\n\nBody.', truncated: false });
    const exact = 'x'.repeat(500);
    expect(truncateMarkdown(exact, 500)).toEqual({ content: exact, truncated: false });
  });

  it('cuts at the last paragraph break under the cap', () => {
    const paras = Array.from({ length: 10 }, (_, i) => paragraph(i));
    const text = paras.join('\n\n');
    const max = paras.slice(0, 4).join('\n\n').length + 30; // a little way into paragraph 5
    const { content, truncated } = truncateMarkdown(text, max);
    expect(truncated).toBe(true);
    expect(content).toBe(paras.slice(0, 4).join('\n\n'));
  });

  it('falls back to a sentence end when no paragraph break is near', () => {
    const text = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const { content } = truncateMarkdown(text, 500);
    expect(content.length).toBeLessThanOrEqual(500);
    expect(content.length).toBeGreaterThan(400);
    expect(content.endsWith('plain.')).toBe(true);
    expect(text.startsWith(content)).toBe(true);
  });

  it('falls back to a space, then a hard cut', () => {
    const words = Array.from({ length: 200 }, () => 'word').join(' ');
    const w = truncateMarkdown(words, 501).content;
    expect(w.length).toBeLessThanOrEqual(501);
    expect(w.endsWith('word')).toBe(true);
    const solid = 'y'.repeat(2000);
    expect(truncateMarkdown(solid, 600)).toEqual({ content: 'y'.repeat(600), truncated: true });
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(600); // 1200 code units, no boundaries at all
    const { content } = truncateMarkdown(emoji, 501);
    expect(content.length).toBe(500);
    expect(wellFormed(content)).toBe(true);
  });

  it('never cuts inside a link', () => {
    const prefix = 'a'.repeat(480);
    const link = '[a link text with spaces. And a sentence](https://example.com/some/long/path?with=query)';
    const text = `${prefix} ${link} and more text after it.`;
    const { content } = truncateMarkdown(text, 520);
    expect(content).toBe(prefix);
  });

  it('never cuts inside an image nested in a link', () => {
    const before = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    const link = `[![logo of the site. With a sentence](https://example.com/logo.png "Logo")](https://example.com/)`;
    const text = `${before} ${link} tail text.`;
    const max = before.length + 40;
    const { content } = truncateMarkdown(text, max);
    expect(content).toBe(before);
  });

  it('keeps a link that ends before the cap', () => {
    const text = `${'b '.repeat(200)}[ok](https://example.com/) ${'c'.repeat(600)}`;
    const { content } = truncateMarkdown(text, 500);
    expect(content.endsWith('[ok](https://example.com/)')).toBe(true);
  });

  it('closes a fenced code block the cut falls into', () => {
    const code = Array.from({ length: 60 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const text = `Intro paragraph.\n\n\`\`\`js\n${code}\n\`\`\`\n\nAfter.`;
    const { content } = truncateMarkdown(text, 600);
    expect(content.length).toBeLessThanOrEqual(600);
    expect(content.startsWith('Intro paragraph.\n\n```js\nconst v0 = 0;')).toBe(true);
    expect(content.endsWith('\n```')).toBe(true);
  });

  it('keeps its invariants on varied input', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = [
      'word ',
      'end. ',
      '\n\n',
      '\n',
      '[link text](https://x.test/a) ',
      '😀',
      '![i](https://x.test/i.png)',
      '中文。',
    ];
    for (let round = 0; round < 200; round += 1) {
      const text = Array.from({ length: 400 }, () => pieces[Math.floor(rand() * pieces.length)]).join('');
      const max = 500 + Math.floor(rand() * 1000);
      const { content, truncated } = truncateMarkdown(text, max);
      expect(content.length).toBeLessThanOrEqual(max);
      expect(truncated).toBe(text.length > max);
      expect(wellFormed(content)).toBe(true);
      expect(text.startsWith(content)).toBe(true);
      // Every "](" opened in content is closed: no half link.
      expect((content.match(/\]\(/g) ?? []).length).toBe((content.match(/\]\([^)]*\)/g) ?? []).length);
    }
  });
});
