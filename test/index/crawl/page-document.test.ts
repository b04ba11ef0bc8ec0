import { describe, expect, it } from 'vitest';
import type { FetchOutcome } from '../../../src/fetch/fetch-service.ts';
import { pageDocument } from '../../../src/index/crawl/page-document.ts';

const outcome = (over: Partial<FetchOutcome>): FetchOutcome => ({
  url: 'https://a.test/old',
  finalUrl: 'https://a.test/new',
  title: 'Title',
  content: 'Some text.',
  chars: 10,
  truncated: false,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
  ...over,
});

describe('pageDocument', () => {
  it('stores the page under its final URL', () => {
    expect(pageDocument(outcome({}))).toEqual({ url: 'https://a.test/new', title: 'Title', content: 'Some text.' });
  });

  it('titles an untitled page by its URL', () => {
    expect(pageDocument(outcome({ title: '  ' }))).toMatchObject({ title: 'https://a.test/new' });
  });

  it('refuses a page without text', () => {
    expect(pageDocument(outcome({ content: '\n  \n' }))).toEqual({ reason: 'the page has no text to index' });
  });
});
