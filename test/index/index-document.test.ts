import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../src/index/index-document.ts';

const ok = { url: 'https://WWW.Example.com/a', title: ' T ', content: ' C ' };

describe('checkDocument', () => {
  it('normalises a good document', () => {
    expect(
      checkDocument({ ...ok, published_date: '2024-05-01T12:00:00+02:00', country: 'de', language: 'de-AT' }),
    ).toEqual({
      row: {
        url: 'https://www.example.com/a',
        domain: 'example.com',
        title: 'T',
        content: 'C',
        published_date: '2024-05-01T10:00:00Z',
        published_day: '2024-05-01',
        language: 'de-AT',
        country: 'DE',
      },
    });
  });

  it('treats blank optional fields as absent', () => {
    expect(checkDocument({ ...ok, published_date: ' ', country: null })).toMatchObject({
      row: { published_date: null, country: null, language: null },
    });
  });

  it.each([
    [[], 'each line must be a JSON object'],
    ['text', 'each line must be a JSON object'],
    [{ title: 't', content: 'c' }, 'url must be a string'],
    [{ ...ok, url: '  ' }, 'url must not be empty'],
    [{ ...ok, url: '/relative' }, 'url must be an absolute http(s) URL'],
    [{ ...ok, url: 'ftp://example.com/x' }, 'url must use http or https'],
    [{ ...ok, url: `https://example.com/${'x'.repeat(2100)}` }, 'url must be at most 2048 characters'],
    [{ ...ok, title: '' }, 'title must not be empty'],
    [{ ...ok, content: 42 }, 'content must be a string'],
    [{ ...ok, published_date: '2024-02-30' }, 'published_date must be an ISO 8601 date (YYYY-MM-DD) or date-time'],
    [{ ...ok, published_date: 20240501 }, 'published_date must be a string when present'],
    [{ ...ok, country: 'DEU' }, 'country must be a 2-letter ISO 3166-1 code'],
    [{ ...ok, language: 'english!' }, 'language must be a BCP 47 tag such as en or pt-BR'],
  ])('refuses %j', (input, reason) => {
    expect(checkDocument(input)).toEqual({ reason });
  });
});
