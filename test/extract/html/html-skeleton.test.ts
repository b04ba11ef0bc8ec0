import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { ensureBodyShell } from '../../../src/extract/html/html-skeleton.ts';
import { stripInertMarkup } from '../../../src/extract/html/inert-markup.ts';

describe('HTML source preparation', () => {
  it('gives a body-less document a shell so linkedom has a body to extract from', () => {
    const html = ensureBodyShell('<!doctype html><title>T</title><meta charset="utf-8"><p>Hello</p>');
    const { document } = parseHTML(html);
    expect(document.title).toBe('T');
    expect(document.body.textContent).toBe('Hello');
  });

  it('leaves documents that have a body alone', () => {
    const html = '<html><head><title>T</title></head><body><p>x</p></body></html>';
    expect(ensureBodyShell(html)).toBe(html);
  });

  it('wraps bare text', () => {
    expect(parseHTML(ensureBodyShell('just text')).document.body.textContent).toBe('just text');
  });

  it('strips scripts, styles, svg, templates, noscript and comments before parsing', () => {
    const html =
      '<p>a</p><script>var s = "</p>";</script><style>p{}</style><svg><path d="M0"/></svg>' +
      '<template><p>t</p></template><noscript><p>n</p></noscript><!-- c --><p>b</p>';
    expect(stripInertMarkup(html)).toBe('<p>a</p><p>b</p>');
  });

  it('moves the first closed head to the head, whatever follows', () => {
    const html = ensureBodyShell('<head><title>T</title></head><head>x<p>y');
    expect(html).toBe('<!DOCTYPE html><html><head><title>T</title></head><body>x<p>y</body></html>');
  });

  it('handles many unclosed head and html tags in linear time', { timeout: 10_000 }, () => {
    // `<head[\s>][\s\S]*?<\/head\s*>` and `<\/?html\b[^>]*>` rescanned the rest of the page
    // from each unclosed tag: about a minute for each of these.
    expect(ensureBodyShell('<head>'.repeat(200_000))).toBe('<!DOCTYPE html><html><head></head><body></body></html>');
    expect(ensureBodyShell('<html'.repeat(200_000))).toBe(
      `<!DOCTYPE html><html><head></head><body>${'<html'.repeat(200_000)}</body></html>`,
    );
  });
});
