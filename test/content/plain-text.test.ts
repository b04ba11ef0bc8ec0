import { describe, expect, it } from 'vitest';
import { blockToPlainText } from '../../src/content/plain-text.ts';

describe('blockToPlainText', () => {
  it('drops inline markup and keeps the text', () => {
    const md =
      'A **bold** __word__, *em*, `code`, <https://e.test/a>, <b>tag</b> and [link](https://e.test/b) ![img](i.png).';
    expect(blockToPlainText(md)).toBe('A bold word, em, code, https://e.test/a, tag and link .');
  });

  it('keeps the characters of code spans: tags, emphasis markers and escapes are text there', () => {
    expect(blockToPlainText('Use `Bearer <key>` or `a *b* c\\_d` but *em* <i>x</i>.')).toBe(
      'Use Bearer <key> or a *b* c\\_d but em x.',
    );
    expect(blockToPlainText('*across `<a>` code*')).toBe('across <a> code');
  });

  it('joins list items and table rows with "; " unless the previous line ended a sentence', () => {
    expect(blockToPlainText('- one\n- two.\n- three')).toBe('one; two. three');
    expect(blockToPlainText('| a | b |\n|---|:--:|\n| 1 | 2 |')).toBe('a, b; 1, 2');
  });

  it('keeps code lines, joined with "; ", without fence lines and blank lines', () => {
    const code = '```js\n  const a = 1;  \n\n\t \n  a  +  b\n```';
    expect(blockToPlainText(code, true)).toBe('const a = 1;; a  +  b');
  });
});

// Each of these took the old rules seconds to minutes (a regex retrying from every start, or
// a string built with += re-read once per line); now they are linear.
describe('blockToPlainText on hostile blocks', () => {
  it('200,000 backticks', { timeout: 10_000 }, () => {
    expect(blockToPlainText(`x${'`'.repeat(200_000)}a`)).toBe(`x${'`'.repeat(200_000)}a`);
  });

  it('50,000 unclosed bold markers', { timeout: 10_000 }, () => {
    expect(blockToPlainText('**a '.repeat(50_000))).toBe('**a '.repeat(50_000).trim());
  });

  it('200,000 spaces before a dash run', { timeout: 10_000 }, () => {
    expect(blockToPlainText(`a\n${' '.repeat(200_000)}--x`)).toBe('a --x');
  });

  it('25,000 autolink openings and 100,000 tag openings', { timeout: 10_000 }, () => {
    expect(blockToPlainText('<http://'.repeat(25_000))).toBe('<http://'.repeat(25_000));
    expect(blockToPlainText('<a'.repeat(100_000))).toBe('<a'.repeat(100_000));
  });

  it('a code line with 200,000 spaces inside', { timeout: 10_000 }, () => {
    expect(blockToPlainText(`\`\`\`\na${' '.repeat(200_000)}b\n\`\`\``, true)).toBe(`a${' '.repeat(200_000)}b`);
  });

  it('a list of 200,000 items', { timeout: 10_000 }, () => {
    const out = blockToPlainText(Array.from({ length: 200_000 }, () => '- a').join('\n'));
    expect(out).toBe(Array.from({ length: 200_000 }, () => 'a').join('; '));
  });
});
