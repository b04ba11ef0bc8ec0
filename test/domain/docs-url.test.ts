import { describe, expect, it } from 'vitest';
import { docFileOf, docUrl, isDocsUrl } from '../../src/domain/docs-url.ts';

describe('docs urls', () => {
  it('are the same whatever the process: https://scout.invalid/docs/<file>#<anchor>', () => {
    expect(docUrl('api.md')).toBe('https://scout.invalid/docs/api.md');
    expect(docUrl('api.md', 'rate-limits')).toBe('https://scout.invalid/docs/api.md#rate-limits');
    expect(docUrl('mcp.md', 'the-tools-ü')).toBe('https://scout.invalid/docs/mcp.md#the-tools-%C3%BC');
  });

  it('name a plain .md file of the docs folder, nothing else', () => {
    expect(isDocsUrl(new URL(docUrl('api.md', 'x')))).toBe(true);
    expect(isDocsUrl(new URL('https://scout.invalid:444/docs/api.md'))).toBe(false);
    expect(docFileOf(new URL(docUrl('api.md', 'x')))).toBe('api.md');
    for (const path of [
      '/docs/..%2Fapi.md',
      '/docs/.env.md',
      '/docs/a/b.md',
      '/docs/%E0%A4%A.md',
      '/api.md',
      '/docs/api.txt',
    ]) {
      expect(docFileOf(new URL(`https://scout.invalid${path}`)), path).toBeUndefined();
    }
  });
});
