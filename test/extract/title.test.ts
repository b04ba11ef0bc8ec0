import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { cleanTitle, pageTitle } from '../../src/extract/title.ts';

const doc = (head: string, body = ''): Document =>
  parseHTML(`<html><head>${head}</head><body>${body}</body></html>`).document as unknown as Document;
const url = 'https://www.riverweekly.com/a/b';

describe('page title', () => {
  it('prefers og:title, then <title>, then the first h1', () => {
    expect(pageTitle(doc('<meta property="og:title" content="OG"><title>T</title>', '<h1>H</h1>'), url)).toBe('OG');
    expect(pageTitle(doc('<title> Plain \n title </title>', '<h1>H</h1>'), url)).toBe('Plain title');
    expect(pageTitle(doc('<title>  </title>', '<h1>Heading <em>one</em></h1>'), url)).toBe('Heading one');
    expect(pageTitle(doc(''), url)).toBe('');
  });

  it('drops a suffix naming og:site_name or the domain', () => {
    expect(cleanTitle('Why rivers bend - Our Little Site', 'Our Little Site', url)).toBe('Why rivers bend');
    expect(cleanTitle('Why rivers bend - River Weekly', null, url)).toBe('Why rivers bend');
    expect(cleanTitle('Why rivers bend — riverweekly.com', null, url)).toBe('Why rivers bend');
  });

  it('drops a short tail after an unambiguous separator', () => {
    expect(cleanTitle('How glaciers carve valleys over millennia | Geo Blog', null, 'https://x.example/')).toBe(
      'How glaciers carve valleys over millennia',
    );
  });

  it('keeps a hyphenated tail that names nothing, unless the head is the page h1', () => {
    expect(cleanTitle('Spider-Man review - Part 2', null, 'https://x.example/')).toBe('Spider-Man review - Part 2');
    expect(pageTitle(doc('<title>Parsing CSV - Dev Notes</title>', '<h1>Parsing CSV</h1>'), 'https://x.example/')).toBe(
      'Parsing CSV',
    );
  });

  it('drops a leading site name', () => {
    expect(cleanTitle('River Weekly | Why rivers bend and loop', 'River Weekly', url)).toBe('Why rivers bend and loop');
  });

  it('leaves titles without separators alone', () => {
    expect(cleanTitle('Rivers: a primer', 'River Weekly', url)).toBe('Rivers: a primer');
  });
});
