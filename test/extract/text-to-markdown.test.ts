import { describe, expect, it } from 'vitest';
import { fence, fenced, jsonToMarkdown, markdownTitle } from '../../src/extract/text-to-markdown.ts';

describe('text to markdown', () => {
  it('takes the first ATX or setext level-1/2 heading as the title', () => {
    expect(markdownTitle('intro\n## Second ##\n# First')).toBe('Second');
    expect(markdownTitle('  # Title #  \nbody')).toBe('Title');
    expect(markdownTitle('### Deep\nTitle\n=====\n')).toBe('Title');
    expect(markdownTitle('Sub\n  ---  \n')).toBe('Sub');
    expect(markdownTitle('#NoSpace\n    # indented code')).toBe('');
    expect(markdownTitle('# #')).toBe('#');
    expect(markdownTitle('# a\rb')).toBe('a');
  });

  it('fences a body with a fence longer than its longest backtick run', () => {
    expect(fence('a ``` b')).toBe('````');
    expect(fenced('x\n\n', 'js')).toBe('```js\nx\n```');
  });

  it('finds the title of a line of " #" pairs in linear time', { timeout: 10_000 }, () => {
    // `^ {0,3}#{1,2}[ \t]+(.+?)[ \t#]*$` is quadratic on this line: minutes at this size.
    const line = `# ${' #'.repeat(200_000)}x`;
    const title = markdownTitle(line);
    expect(title.length).toBe(line.length - 3);
    expect(title.endsWith('#x')).toBe(true);
  });

  it('returns JSON and text made of a few hundred thousand backtick runs', () => {
    // Math.max(...runs) threw RangeError (call stack) on these, which became a 500.
    const text = '` '.repeat(200_000);
    expect(jsonToMarkdown(text).startsWith('```\n` ` ')).toBe(true);
    expect(jsonToMarkdown(JSON.stringify(text)).startsWith('```json\n"` ')).toBe(true);
  });

  it('drops trailing newlines of a long run in linear time', { timeout: 10_000 }, () => {
    expect(fenced(`${'\n'.repeat(400_000)}x`, '').endsWith('x\n```')).toBe(true);
  });
});
