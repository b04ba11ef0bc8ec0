import { describe, expect, it } from 'vitest';
import { escapeMarkdownText } from '../../../src/extract/html/markdown-escape.ts';

describe('escapeMarkdownText', () => {
  it('leaves underscores inside words alone', () => {
    expect(escapeMarkdownText('snake_case, SCOUT_DATA_DIR and a__b')).toBe('snake_case, SCOUT_DATA_DIR and a__b');
    expect(escapeMarkdownText('größe_in_mb 1_000')).toBe('größe_in_mb 1_000');
  });

  it('escapes underscores that could open or close emphasis', () => {
    expect(escapeMarkdownText('_emphasis_ and __strong__')).toBe('\\_emphasis\\_ and \\_\\_strong\\_\\_');
    expect(escapeMarkdownText('__init__')).toBe('\\_\\_init\\_\\_');
    expect(escapeMarkdownText('word_ _word')).toBe('word\\_ \\_word');
    expect(escapeMarkdownText('_')).toBe('\\_');
  });

  it("keeps Turndown's other escapes", () => {
    expect(escapeMarkdownText('# not a heading')).toBe('\\# not a heading');
    expect(escapeMarkdownText('*a* [b] `c` \\')).toBe('\\*a\\* \\[b\\] \\`c\\` \\\\');
    expect(escapeMarkdownText('1. not a list')).toBe('1\\. not a list');
  });
});
