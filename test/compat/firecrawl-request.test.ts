import { describe, expect, it } from 'vitest';
import { firecrawlSearchBody } from '../../src/compat/firecrawl-results.ts';
import { scrapeDocument, scrapeFormats, scrapePlan, scrapeRequest } from '../../src/compat/firecrawl-scrape.ts';
import type { FetchOutcome } from '../../src/fetch/fetch-service.ts';
import { rawText } from '../../src/extract/raw-text.ts';
import { firecrawlSearchPlan } from '../../src/compat/firecrawl-search.ts';
import { extractiveSummary, SUMMARY_MAX } from '../../src/compat/firecrawl-summary.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';

describe('scrape requests', () => {
  it('take formats as names or {type} objects, markdown by default', () => {
    expect(scrapeRequest({ url: ' https://a.example/ ' })).toEqual({
      url: 'https://a.example/',
      plan: { formats: new Set(['markdown']) },
    });
    expect(scrapeFormats(['links', { type: 'summary' }, 'rawHtml'], ['markdown'])).toEqual(
      new Set(['links', 'summary', 'rawHtml']),
    );
    expect(scrapeFormats(null, [])).toEqual(new Set());
  });

  it('refuse each format Scout cannot honour by name, and a format it does not know', () => {
    expect(() => scrapeFormats(['html'], [])).toThrow(
      'format "html" is not served: Scout keeps the main content as markdown, not as HTML; ask for markdown, or rawHtml for the page as fetched. Scout serves markdown, rawHtml, links and summary',
    );
    for (const f of ['screenshot', 'json', 'changeTracking', 'branding', 'images', 'audio'])
      expect(() => scrapeFormats([{ type: f }], [])).toThrow(`format "${f}" is not served: `);
    expect(() => scrapeFormats(['hologram'], [])).toThrow(
      'format "hologram" is not served. Scout serves markdown, rawHtml, links and summary',
    );
    expect(() => scrapeFormats('markdown', [])).toThrow('formats must be a list');
  });

  it('refuse options whose dropping would change the page, ignore the rest, read timeout', () => {
    for (const name of ['actions', 'includeTags', 'excludeTags']) {
      expect(() => scrapePlan({ [name]: ['x'] }, [])).toThrow(`${name} is not served: `);
      expect(scrapePlan({ [name]: [] }, [])).toEqual({ formats: new Set() });
    }
    expect(() => scrapePlan({ headers: { cookie: 'a=b' } }, [])).toThrow('headers is not served');
    expect(() => scrapePlan({ location: { country: 'DE' } }, [])).toThrow('location is not served');
    expect(() => scrapePlan({ redactPII: true }, [])).toThrow('redactPII is not served');
    expect(() => scrapePlan({ lockdown: true }, [])).toThrow('lockdown is not served');
    expect(() => scrapePlan({ onlyMainContent: false }, [])).toThrow('onlyMainContent false is not served');
    expect(
      scrapePlan({ headers: {}, maxAge: 0, minAge: 5, mobile: true, waitFor: 2000, proxy: 'stealth', timeout: 1500 }, [
        'markdown',
      ]),
    ).toEqual({ formats: new Set(['markdown']), timeoutMs: 1500 });
    expect(() => scrapePlan({ timeout: 0 }, [])).toThrow('timeout must be a positive number of milliseconds');
  });
});

describe('firecrawlSearchPlan', () => {
  it('defaults to five results, clamps limit to 20, ignores what it does not read', () => {
    expect(firecrawlSearchPlan({ query: 'q', origin: 'js-sdk@4', highlights: true, ignoreInvalidURLs: true })).toEqual({
      request: { query: 'q', max_results: 5 },
    });
    expect(firecrawlSearchPlan({ query: 'q', limit: 100 }).request.max_results).toBe(20);
    expect(() => firecrawlSearchPlan({ query: 'q', limit: 0 })).toThrow('limit must be a whole number from 1');
    expect(() => firecrawlSearchPlan({ query: ' ' })).toThrow('query is required');
  });

  it('maps tbs qdr onto freshness and cdr onto dates; refuses the hour, sorting and the unknown', () => {
    expect(firecrawlSearchPlan({ query: 'q', tbs: 'qdr:w' }).request.freshness).toBe('week');
    expect(firecrawlSearchPlan({ query: 'q', tbs: 'cdr:1,cd_min:1/2/2025,cd_max:12/31/2025' }).request).toMatchObject({
      start_date: '2025-01-02',
      end_date: '2025-12-31',
    });
    expect(firecrawlSearchPlan({ query: 'q', tbs: 'cdr:1,cd_min:3/1/2024' }).request).toMatchObject({
      start_date: '2024-03-01',
    });
    expect(() => firecrawlSearchPlan({ query: 'q', tbs: 'qdr:h' })).toThrow('tbs qdr:h (past hour) is not served');
    expect(() => firecrawlSearchPlan({ query: 'q', tbs: 'qdr:d,sbd:1' })).toThrow('tbs sbd (sort by date)');
    expect(() => firecrawlSearchPlan({ query: 'q', tbs: 'cdr:1,cd_min:2/30/2025' })).toThrow(
      'tbs cd_min must be a date M/D/YYYY',
    );
    expect(() => firecrawlSearchPlan({ query: 'q', tbs: 'qdr:fortnight' })).toThrow('tbs must be qdr:d');
  });

  it('reads the country from location or country, domains, sources and scrapeOptions', () => {
    expect(
      firecrawlSearchPlan({ query: 'q', location: 'San Francisco,California,United States' }).request.country,
    ).toBe('US');
    expect(firecrawlSearchPlan({ query: 'q', country: 'de', location: 'Germany' }).request.country).toBe('DE');
    expect(() => firecrawlSearchPlan({ query: 'q', country: 'Germany' })).toThrow('country must be a 2-letter');
    expect(
      firecrawlSearchPlan({ query: 'q', includeDomains: ['a.example'], excludeDomains: [] }).request,
    ).toMatchObject({ include_domains: ['a.example'] });
    expect(firecrawlSearchPlan({ query: 'q', sources: [{ type: 'web' }, 'images'] }).warning).toBe(
      'Scout searched the web only: images not searched',
    );
    expect(() => firecrawlSearchPlan({ query: 'q', categories: ['github'] })).toThrow('categories are not served');
    expect(firecrawlSearchPlan({ query: 'q', scrapeOptions: { onlyMainContent: true } }).scrape).toBeUndefined();
    expect(firecrawlSearchPlan({ query: 'q', scrapeOptions: { formats: ['markdown'] }, timeout: 9000 })).toMatchObject({
      scrape: { formats: new Set(['markdown']), rawMaxChars: 1_000_000 },
      timeoutMs: 9000,
    });
    expect(() => firecrawlSearchPlan({ query: 'q', scrapeOptions: { formats: ['screenshot'] } })).toThrow(
      'format "screenshot" is not served',
    );
    expect(() => firecrawlSearchPlan({ query: 'q', scrapeOptions: { actions: [{ type: 'wait' }] } })).toThrow(
      'scrapeOptions.actions is not served',
    );
  });
});

describe('extractiveSummary', () => {
  it('is the description when there is one, else the first prose paragraphs, about 1,000 characters', () => {
    expect(extractiveSummary(' A page about ferns. ', '# Title\n\nBody.')).toBe('A page about ferns.');
    expect(
      extractiveSummary(
        undefined,
        '# Title\n\n![img](x.png)\n\nFirst [linked](https://a.example) **words**.\n\n- a list item\n\nSecond.',
      ),
    ).toBe('First linked words. a list item Second.');
    const long = extractiveSummary(undefined, Array.from({ length: 50 }, () => 'Ferns grow near lakes.').join('\n\n'));
    expect(long.length).toBeLessThanOrEqual(SUMMARY_MAX + 1);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('firecrawlSearchBody', () => {
  const result = (n: number, type: 'organic' | 'sponsored') =>
    ({
      type,
      rank: n,
      url: `https://r${n}.example/`,
      title: `T${n}`,
      content: `C${n}`,
      domain: `r${n}.example`,
    }) as SearchResponse['results'][number];

  it('puts ads first without a position, organic results after in order, a failed page with its reason', () => {
    const body = firecrawlSearchBody(
      { request: { query: 'q' }, warning: 'w' },
      {
        body: { results: [result(1, 'sponsored'), result(1, 'organic'), result(2, 'organic')] } as SearchResponse,
        advertisers: ['Acme'],
      },
      [
        { error: 'refused: x' },
        { doc: { markdown: 'M', metadata: { sourceURL: 'https://r2.example/', url: 'https://r2.example/' } } },
      ],
    );
    expect(body).toEqual({
      success: true,
      warning: 'w',
      data: {
        web: [
          {
            url: 'https://r1.example/',
            title: 'Sponsored: T1',
            description: 'Sponsored by Acme (an ad, not a search result). C1',
            category: 'sponsored',
          },
          {
            url: 'https://r1.example/',
            title: 'T1',
            description: 'C1',
            position: 1,
            metadata: { sourceURL: 'https://r1.example/', url: 'https://r1.example/', error: 'refused: x' },
          },
          {
            url: 'https://r2.example/',
            title: 'T2',
            description: 'C2',
            position: 2,
            markdown: 'M',
            metadata: { sourceURL: 'https://r2.example/', url: 'https://r2.example/' },
          },
        ],
      },
    });
  });
});

describe('scrapeDocument', () => {
  const page: FetchOutcome = {
    url: 'https://a.example/doc.pdf',
    finalUrl: 'https://a.example/doc.pdf',
    title: 'Doc',
    content: 'Text of the PDF.',
    chars: 16,
    truncated: true,
    meta: { unwrapped: false, click_path: null, content_type: 'application/pdf' },
    status: 200,
  };

  it('says in warning what it could not give: no rawHtml for a PDF, a page cut', () => {
    const doc = scrapeDocument({ formats: new Set(['rawHtml', 'links', 'summary']) }, page);
    expect(doc).toEqual({
      links: [],
      summary: 'Text of the PDF.',
      warning:
        "rawHtml is absent: the page is a PDF, which has no text as fetched; the page was cut: its markdown at 200000 characters, or its body at Scout's size limits",
      metadata: {
        title: 'Doc',
        sourceURL: page.url,
        url: page.finalUrl,
        statusCode: 200,
        contentType: 'application/pdf',
        cacheState: 'miss',
      },
    });
  });

  it('cuts rawHtml at the plan bound, saying so', () => {
    const doc = scrapeDocument(
      { formats: new Set(['rawHtml']), rawMaxChars: 5 },
      { ...page, truncated: false, raw: '<html>…</html>' },
    );
    expect(doc).toMatchObject({ rawHtml: '<html', warning: 'rawHtml was cut at 5 characters' });
  });

  it('reads a PDF as having no raw text, and any other body as text in its charset', () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 …');
    expect(rawText(pdf, 'application/octet-stream', 'application/octet-stream')).toBeUndefined();
    expect(rawText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=latin1', 'text/plain')).toBe('café');
  });
});
