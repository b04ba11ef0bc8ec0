import { describe, expect, it } from 'vitest';
import { rankBySearch, urlSearch } from '../../src/site/url-search.ts';

describe('urlSearch', () => {
  it('counts the query words in the path and title, a word also matching a longer word it begins', () => {
    const s = urlSearch('the authentication api');
    expect(s.score('https://a.test/docs/api/authentication', null)).toBe(2);
    expect(s.score('https://a.test/docs/auth_tokens', 'API reference')).toBe(1);
    expect(s.score('https://a.test/blog/hello', null)).toBe(0);
    expect(urlSearch('auth').score('https://a.test/docs/authentication', null)).toBe(1);
    expect(urlSearch('café').score('https://a.test/menu/cafe', null)).toBe(1);
    expect(urlSearch('pricing').score('https://a.test/%70ricing-plans', null)).toBe(1);
  });

  it('ranks by score, keeping the order among equals and dropping zeros', () => {
    const items = ['/a-x', '/a-x-y', '/b', '/x-y-2'];
    const scores: Record<string, number> = { '/a-x': 1, '/a-x-y': 2, '/b': 0, '/x-y-2': 2 };
    expect(rankBySearch(items, (i) => scores[i] ?? 0)).toEqual(['/a-x-y', '/x-y-2', '/a-x']);
  });
});
