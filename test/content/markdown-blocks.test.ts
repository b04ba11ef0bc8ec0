import { describe, expect, it } from 'vitest';
import { openFence, sentenceEnds, splitBlocks } from '../../src/content/markdown-blocks.ts';

describe('splitBlocks', () => {
  it('splits at blank lines but keeps a fenced code block with blank lines whole', () => {
    const md = '# Title\n\nFirst para\nstill first.\n\n```js\na();\n\nb();\n```\n\n  \n- item\n- item 2\n';
    const blocks = splitBlocks(md).map((b) => ({ text: md.slice(b.start, b.end), fenced: b.fenced }));
    expect(blocks).toEqual([
      { text: '# Title', fenced: false },
      { text: 'First para\nstill first.', fenced: false },
      { text: '```js\na();\n\nb();\n```', fenced: true },
      { text: '- item\n- item 2', fenced: false },
    ]);
  });
});

describe('sentenceEnds', () => {
  it('ends sentences after terminal punctuation and at line breaks, never inside a link', () => {
    const text = 'One. See [Mr. Smith. Jr](https://x.test/a.b) now! Line\nnext 。后面';
    const ends = sentenceEnds(text);
    const pieces = ends.map((e, i) => text.slice(i === 0 ? 0 : ends[i - 1], e).trim());
    expect(pieces).toEqual(['One.', 'See [Mr. Smith. Jr](https://x.test/a.b) now!', 'Line', 'next 。', '后面']);
  });

  it('ends only at line breaks in code', () => {
    expect(sentenceEnds('a. b\nc', true)).toEqual([4, 6]);
  });

  // The old check searched every link for every sentence end: many seconds here.
  it('handles a block of 100,000 links and sentences', { timeout: 10_000 }, () => {
    const text = Array.from({ length: 100_000 }, () => '[a. b](http://b.test/c.d). x').join(' ');
    const ends = sentenceEnds(text);
    expect(ends.length).toBe(100_001);
    expect(text.slice(0, ends[0])).toBe('[a. b](http://b.test/c.d).');
    expect(ends[ends.length - 1]).toBe(text.length);
  });
});

describe('openFence', () => {
  it('reports the marker of a fence left open', () => {
    expect(openFence('x\n```py\ncode')).toBe('```');
    expect(openFence('x\n~~~~\ncode\n~~~~')).toBeNull();
  });
});
