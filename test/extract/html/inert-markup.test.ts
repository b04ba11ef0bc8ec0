import { describe, expect, it } from 'vitest';
import { stripInertMarkup } from '../../../src/extract/html/inert-markup.ts';

describe('stripInertMarkup', () => {
  it('ends an element at its first closing tag and a comment at its first -->', () => {
    expect(stripInertMarkup('a<SCRIPT type="x">if (a<b) {}</script >b<style>p{}</STYLE>c')).toBe('abc');
    expect(stripInertMarkup('a<!-- x --> y -->b')).toBe('a y -->b');
    expect(stripInertMarkup('a<script-x>s</script>b')).toBe('ab');
    expect(stripInertMarkup('a<scripts>b</scripts>')).toBe('a<scripts>b</scripts>');
  });

  it('keeps what is never closed, and still strips what is closed inside it', () => {
    expect(stripInertMarkup('a<script>x<!-- c -->y')).toBe('a<script>xy');
    expect(stripInertMarkup('a<!-- open <style>s</style>b')).toBe('a<!-- open b');
    expect(stripInertMarkup('<svg')).toBe('<svg');
  });

  it('reads a page of unclosed comments once', { timeout: 10_000 }, () => {
    // The regex rescanned the rest of the page from every `<!--`: over a minute at this size.
    const html = '<!--'.repeat(300_000);
    expect(stripInertMarkup(html)).toBe(html);
  });

  it('reads a page of unclosed scripts and styles once', { timeout: 10_000 }, () => {
    const html = '<script><style x="1"><noscript>'.repeat(100_000);
    expect(stripInertMarkup(html)).toBe(html);
    const closedLast = `${'<script>'.repeat(200_000)}</script>kept`;
    expect(stripInertMarkup(closedLast)).toBe('kept');
  });
});
