import { describe, expect, it } from 'vitest';
import { markdownToText } from '../../bench/markdown-text.ts';
import { words } from '../../bench/wcxb-metric.ts';

describe('markdown as plain text (for WCXB)', () => {
  it('drops images and link targets, keeping link text', () => {
    const md = 'See ![a chart](https://x.example/c.png) [the *docs*](https://x.example/a_(b) "Title") now';
    expect(markdownToText(md)).toBe('See   the docs now');
  });

  it('reads a bracket after a backslash as text, not the start of a link', () => {
    const md = 'He said \\[sic\\] and [more](https://x.example/m), and \\\\[this](https://x.example/t)';
    expect(markdownToText(md)).toBe('He said [sic] and more, and \\this');
  });

  it('removes emphasis, strike-through and inline code marks, and unescapes', () => {
    const md = '*a* **b** _c_ __d__ ~~e~~ `f` in*cred*ible 2 \\* 3 \\`g\\` \\# h';
    expect(markdownToText(md)).toBe('a b c d e f incredible 2 * 3 `g` # h');
  });

  it('keeps underscores that are part of the text', () => {
    const md = 'snake_case and _emphasis_ and \\_private and \\_\\_init\\_\\_ and ___';
    // Turndown escapes a literal `_` at a word's edge; an unescaped run there is emphasis.
    expect(words(markdownToText(md))).toEqual([
      'snake_case',
      'and',
      'emphasis',
      'and',
      '_private',
      'and',
      '__init__',
      'and',
    ]);
  });

  it('writes list items as the reference does: `- item` and `1. item`', () => {
    const md = '- a\n* b\n+ c\n1.  d\n12. e\n    - f\n- [x] g\n1\\. not a list\n\\- not one either';
    expect(markdownToText(md)).toBe('- a\n- b\n- c\n1. d\n12. e\n- f\n- g\n1. not a list\n- not one either');
    expect(words(markdownToText('1.  first\n2.  second'))).toEqual(['1', 'first', '2', 'second']);
  });

  it('drops heading hashes, setext underlines, rules and blockquote marks', () => {
    const md = '## Title\n\nSub\n===\n\n> quoted *text*\n> > deeper\n\n* * *\n---\n___\n\n#hashtag';
    expect(markdownToText(md)).toBe('Title\n\nSub\n\n\nquoted text\ndeeper\n\n\n\n\n\n#hashtag');
  });

  it('turns table pipes into spaces and drops the delimiter row', () => {
    const md = '| Name | Value |\n| --- | :-: |\n| a\\|b | 1 |';
    const text = markdownToText(md);
    expect(text.split('\n')[1]).toBe('');
    expect(words(text)).toEqual(['name', 'value', 'a', 'b', '1']);
    expect(text.replace(/\s+/g, ' ').trim()).toBe('Name Value a|b 1');
  });

  it('keeps code as it is, without the fence or its info string', () => {
    const md = 'Run:\n\n```js\nconst x_y = a * b; // \\_ [x](y)\n```\n\nDone *now*\n~~~\n*raw*\n~~~';
    expect(markdownToText(md)).toBe('Run:\n\nconst x_y = a * b; // \\_ [x](y)\n\nDone now\n*raw*');
    expect(words(markdownToText('```python\nprint(1)\n```'))).toEqual(['print', '1']);
  });

  it('treats an unclosed fence as code to the end', () => {
    expect(markdownToText('text\n```\n*kept*')).toBe('text\n*kept*');
  });
});
