import { describe, expect, it } from 'vitest';
import { findPhrase, foldText, tokenize, toPhrase, wordForms } from '../../src/sponsored/text-match.ts';

const matches = (keyword: string, query: string) =>
  findPhrase(toPhrase(keyword), tokenize(query).map(wordForms)) !== undefined;

describe('text folding', () => {
  it('ignores case, accents, apostrophes and special letters', () => {
    expect(foldText('Crème BRÛLÉE')).toBe('creme brulee');
    expect(foldText('Straße Ørsted Łódź')).toBe('strasse orsted lodz');
    expect(tokenize('Women’s Running-Shoes, 2026!')).toEqual(['womens', 'running', 'shoes', '2026']);
    expect(tokenize('C++ or C# or F#?')).toEqual(['c++', 'or', 'c#', 'or', 'f#']);
    expect(tokenize('¿?!')).toEqual([]);
  });
});

describe('plural forms', () => {
  it.each([
    ['cookies', 'cookie'],
    ['batteries', 'battery'],
    ['boxes', 'box'],
    ['matches', 'match'],
    ['buses', 'bus'],
    ['glasses', 'glass'],
    ['houses', 'house'],
    ['shoes', 'shoe'],
    ['tomatoes', 'tomato'],
    ['apis', 'api'],
    ['ties', 'tie'],
    ['statuses', 'status'],
    ['menus', 'menu'],
  ])('%s is a plural of %s (both directions)', (plural, singular) => {
    expect(matches(singular, plural)).toBe(true);
    expect(matches(plural, singular)).toBe(true);
  });

  it('never conflates two different singulars or non-plurals', () => {
    expect(matches('win', 'wines')).toBe(false);
    expect(matches('new', 'news')).toBe(false);
    expect(matches('go', 'goes')).toBe(false);
    expect(matches('bike', 'bikers')).toBe(false);
    expect(matches('glas', 'glass')).toBe(false);
    expect(matches('bu', 'bus')).toBe(false);
    expect(wordForms('glass')).toEqual(['glass']);
    expect(wordForms('news')).toEqual(['news']);
  });
});

describe('phrase match', () => {
  it('matches whole words in order, anywhere in the query, accents and case ignored', () => {
    expect(matches('running shoes', 'Best RUNNING shoes for flat feet')).toBe(true);
    expect(matches('running shoes', 'shoes for running')).toBe(false);
    expect(matches('running shoes', 'running in new shoes')).toBe(false);
    expect(matches('crème brûlée', 'easy creme brulee recipe')).toBe(true);
    expect(matches('shoe', 'shoemaker tools')).toBe(false);
    expect(matches('vpn', 'best VPNs 2026')).toBe(true);
  });
});
