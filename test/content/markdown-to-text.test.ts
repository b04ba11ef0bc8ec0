import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from '../../src/content/markdown-to-text.ts';

describe('markdownToPlainText', () => {
  it('keeps the text of each block, a blank line between blocks, and drops markup and image-only blocks', () => {
    const md = [
      '# Title',
      'Read the [guide](https://x.example/g) *first*: it is **short**.',
      '![logo](https://x.example/logo.png)',
      '- one\n- two',
      '```\nconst a = `<b>`;\n```',
    ].join('\n\n');
    expect(markdownToPlainText(md)).toBe('Title\n\nRead the guide first: it is short.\n\none; two\n\nconst a = `<b>`;');
    expect(markdownToPlainText('')).toBe('');
  });
});
