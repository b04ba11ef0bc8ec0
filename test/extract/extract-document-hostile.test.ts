import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/extract/extract-document.ts';

/**
 * Bodies from a white-box review that froze the server before (exponential or quadratic
 * regexes, in our code and in the libraries, and call-stack overflows that became 500s).
 * The fetch deadline cannot interrupt synchronous work, so each must simply finish: the
 * test timeout is the guard, and the sizes are ones the old code needed minutes (or
 * hours) for.
 */
const run = (body: string, contentType: string | null) =>
  extractDocument({ body: new TextEncoder().encode(body), contentType, url: 'https://example.com/page' });

const WORDS = 'A paragraph long enough to count as article text for the extractor. '.repeat(4);
const article = (inner: string): string =>
  `<html><body><article><h1>Title</h1><p>${WORDS}</p>${inner}<p>${WORDS}</p></article></body></html>`;

describe('extractDocument on hostile bodies', () => {
  it('sniffs a body of 40 empty comments without content type, or as XML', { timeout: 10_000 }, async () => {
    const body = `${'<!---->'.repeat(40)}Z`;
    expect(await run(body, null)).toEqual({ title: '', markdown: body, contentType: 'text/plain' });
    expect((await run(body, 'application/xml')).markdown).toBe(`\`\`\`xml\n${body}\n\`\`\``);
  });

  it('returns JSON and markdown made of backtick runs instead of throwing', { timeout: 10_000 }, async () => {
    const ticks = '` '.repeat(200_000);
    expect((await run(ticks, 'application/json')).markdown.startsWith('```\n` `')).toBe(true);
    expect((await run(`<a>${ticks}</a>`, 'application/xml')).markdown.startsWith('```xml\n<a>')).toBe(true);
    const md = await run(`# ${' #'.repeat(200_000)}x`, 'text/markdown');
    expect(md.title.endsWith('#x')).toBe(true);
  });

  // 1.7 s at most seen, on a 2-core machine loaded ten times over (issue 24).
  it('extracts HTML full of unclosed comments, scripts and heads', { timeout: 10_000 }, async () => {
    expect((await run('<!--'.repeat(300_000), 'text/html')).markdown).toBe('');
    expect((await run('<script>'.repeat(200_000), 'text/html')).markdown).toBe('');
    expect((await run('<head>'.repeat(200_000), 'text/html')).markdown).toBe('');
  });

  it('extracts a code block of 400,000 spaces', { timeout: 10_000 }, async () => {
    const doc = await run(article(`<pre>${' '.repeat(400_000)}x</pre>`), 'text/html');
    expect(doc.markdown).toContain(`\`\`\`\n${' '.repeat(400_000)}x\n\`\`\``);
  });

  it('extracts 19,000 nested elements without overflowing the stack', { timeout: 10_000 }, async () => {
    // Turndown's recursion overflowed at about 2,000 levels (a RangeError, so a 500), and the
    // parser and Readability slow down with depth: over a minute for 133,000 of them, which
    // markup-bounds.ts now cuts at 20,000 start tags.
    const doc = await run(`<html><body><p>${WORDS}${'<b>'.repeat(19_000)}deep</p></body></html>`, 'text/html');
    expect(doc.markdown).toContain('deep');
    expect(doc.truncated).toBeUndefined();
  });

  it('extracts articles whose image attributes hold one long token', { timeout: 10_000 }, async () => {
    // Readability's srcset and lazy-image regexes are quadratic in such a token: minutes.
    const srcset = await run(article(`<img src="/a.png" srcset="${'a'.repeat(200_000)} b">`), 'text/html');
    expect(srcset.markdown).toContain('![](https://example.com/a.png)');
    const lazy = await run(article(`<img data-x="${'.jpg'.repeat(100_000)} x">`), 'text/html');
    // The headline is the title, returned on its own (not repeated in the markdown).
    expect(lazy.title).toBe('Title');
    expect(lazy.markdown).toContain(WORDS.trim().slice(0, 60));
  });
});
