import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { linkDensity, TextMeasure, textLength } from '../../../src/extract/html/text-stats.ts';

const body = (html: string): Element => (parseHTML(html).document as unknown as Document).body;

/** TextMeasure is a shortcut: it must answer what textLength and linkDensity answer, for every element. */
function expectSameAsDirect(root: Element): void {
  const measure = new TextMeasure(root);
  for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
    expect(measure.textLength(el)).toBe(textLength(el));
    expect(measure.linkDensity(el)).toBeCloseTo(linkDensity(el), 12);
  }
}

describe('TextMeasure', () => {
  it('answers as textLength and linkDensity on every golden page, for every element', () => {
    const pages = join(import.meta.dirname, '..', 'pages');
    const names = readdirSync(pages);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      expectSameAsDirect(body(readFileSync(join(pages, name, 'input.html'), 'utf8')));
    }
  });

  it('counts as they do around nested links, a link element itself, comments, scripts and odd white space', () => {
    expectSameAsDirect(
      body(`<div><a href="/a">outer <b>bold</b> <a href="/b">inner</a></a> tail&nbsp;text
        <!-- a comment that is not text --><script>var x = 1;</script><p>para\t<a href="/c"> c </a></p>
        <a href="/d"><span>only link</span></a><![CDATA[ cdata words ]]></div>`),
    );
  });

  it('measures the tree as it was: an element the walk did not see is measured directly', () => {
    const root = body('<div><p>one two</p></div>');
    const measure = new TextMeasure(root);
    const added = root.ownerDocument.createElement('p');
    added.textContent = 'three four five';
    root.appendChild(added);
    expect(measure.textLength(added)).toBe(13);
    expect(measure.linkDensity(added)).toBe(0);
  });
});
