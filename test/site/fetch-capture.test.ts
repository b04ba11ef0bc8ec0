import { describe, expect, it } from 'vitest';
import type { ExtractInput } from '../../src/extract/extract-document.ts';
import { extractInProcess } from '../../src/fetch/extract-task.ts';
import { createFetchCapture } from '../../src/site/fetch-capture.ts';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const input = (html: string, url: string, contentType = 'text/html; charset=utf-8'): ExtractInput => ({
  body: bytes(html),
  contentType,
  url,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createFetchCapture', () => {
  it('returns the raw page links of the fetch it wraps, even when fetches overlap', async () => {
    const capture = createFetchCapture(extractInProcess);
    const fetchLike = (html: string, url: string, waitMs: number) => async () => {
      await sleep(waitMs);
      return (await capture.extract(input(html, url))).title;
    };
    const [slow, fast] = await Promise.all([
      capture.capture(fetchLike('<title>Slow</title><nav><a href="/one">1</a></nav>', 'https://a.test/', 20)),
      capture.capture(fetchLike('<title>Fast</title><nav><a href="/two">2</a></nav>', 'https://b.test/', 1)),
    ]);
    expect(slow).toEqual({ result: 'Slow', html: { links: ['https://a.test/one'], index: true, follow: true } });
    expect(fast).toEqual({ result: 'Fast', html: { links: ['https://b.test/two'], index: true, follow: true } });
  });

  it('decodes the body with its declared charset before reading links', async () => {
    const capture = createFetchCapture(extractInProcess);
    // "café" in windows-1252: 0xE9 is é.
    const body = Uint8Array.from([...bytes('<a href="/caf'), 0xe9, ...bytes('">x</a>')]);
    const { html } = await capture.capture(() =>
      capture.extract({ body, contentType: 'text/html; charset=windows-1252', url: 'https://a.test/' }),
    );
    expect(html?.links).toEqual(['https://a.test/caf%C3%A9']);
  });

  it('leaves non-HTML bodies and fetches outside capture alone', async () => {
    const capture = createFetchCapture(extractInProcess);
    const text = await capture.capture(() =>
      capture.extract(input('[a](https://a.test/x)', 'https://a.test/r.md', 'text/markdown')),
    );
    expect(text.html).toBeUndefined();
    const outside = await capture.extract(input('<title>T</title><a href="/x">x</a>', 'https://a.test/'));
    expect(outside.title).toBe('T');
  });

  it('passes extraction errors through', async () => {
    const capture = createFetchCapture(extractInProcess);
    await expect(
      capture.capture(() => capture.extract(input('GIF89a', 'https://a.test/i', 'image/gif'))),
    ).rejects.toMatchObject({ kind: 'unsupported_media' });
  });
});
