import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { extractDocument } from '../../src/extract/extract-document.ts';
import { makePdf } from './make-pdf.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const url = 'https://feeds.example.com/blog/feed.xml';
const run = (body: Uint8Array, contentType: string | null) => extractDocument({ body, contentType, url });

async function expect415(body: Uint8Array, contentType: string | null): Promise<DomainError> {
  const error = await run(body, contentType).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe('unsupported_media');
  return error as DomainError;
}

const RSS = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel>
  <title>River Notes</title><link>https://feeds.example.com/blog/</link><description>Notes on rivers</description>
  <item><title>Oxbow lakes</title><link>/blog/oxbow</link><pubDate>Tue, 05 Mar 2024 10:00:00 GMT</pubDate>
    <description>&lt;p&gt;How a &lt;b&gt;meander&lt;/b&gt; is cut off.&lt;/p&gt;</description></item>
  <item><title>Deltas [part 1]</title><link>https://feeds.example.com/blog/deltas</link></item>
</channel></rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Notes</title>
  <entry><title>First entry</title><link rel="alternate" href="https://a.example/1"/><link rel="edit" href="https://a.example/edit/1"/>
    <updated>2024-01-02T03:04:05Z</updated><summary>Short summary.</summary></entry>
</feed>`;

const RDF = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>RDF Notes</title></channel>
  <item><title>Old item</title><link>https://r.example/old</link><dc:date>2003-04-05</dc:date></item>
</rdf:RDF>`;

describe('extractDocument content types', () => {
  it('passes text/plain through with newlines normalised and the media type without parameters', async () => {
    const doc = await run(utf8('line one\r\nline *two*\r\n'), 'text/plain; charset=utf-8');
    expect(doc).toEqual({ title: '', markdown: 'line one\nline *two*\n', contentType: 'text/plain' });
  });

  it('passes text/markdown through and takes its first heading as title', async () => {
    const md = 'Intro\n\n# Release notes\n\n- fixed things\n';
    expect(await run(utf8(md), 'text/markdown')).toEqual({
      title: 'Release notes',
      markdown: md,
      contentType: 'text/markdown',
    });
  });

  it('pretty-prints JSON (and +json types) in a json fence', async () => {
    const doc = await run(utf8('{"a":1,"b":[true,null]}'), 'application/json');
    expect(doc.markdown).toBe('```json\n{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}\n```');
    expect((await run(utf8('{"@type":"Thing"}'), 'application/ld+json')).markdown).toContain('"@type": "Thing"');
  });

  it('puts invalid JSON in a plain fence as it is', async () => {
    expect((await run(utf8('{"a": 1,'), 'application/json')).markdown).toBe('```\n{"a": 1,\n```');
  });

  it('turns RSS into a list of linked, dated items with the feed title as title', async () => {
    const doc = await run(utf8(RSS), 'application/rss+xml');
    expect(doc.title).toBe('River Notes');
    expect(doc.markdown).toBe(
      'Notes on rivers\n\n' +
        '- [Oxbow lakes](https://feeds.example.com/blog/oxbow) (2024-03-05)\n  How a meander is cut off.\n' +
        '- [Deltas \\[part 1\\]](https://feeds.example.com/blog/deltas)',
    );
  });

  it('turns Atom and RSS 1.0 (RDF) into item lists', async () => {
    const atom = await run(utf8(ATOM), 'application/atom+xml');
    expect(atom.title).toBe('Atom Notes');
    expect(atom.markdown).toBe('- [First entry](https://a.example/1) (2024-01-02)\n  Short summary.');
    const rdf = await run(utf8(RDF), 'application/rdf+xml');
    expect(rdf).toMatchObject({ title: 'RDF Notes', markdown: '- [Old item](https://r.example/old) (2003-04-05)' });
  });

  it('reads feeds served as generic XML or text/xml by their root element', async () => {
    expect((await run(utf8(RSS), 'text/xml')).title).toBe('River Notes');
    const other = await run(utf8('<?xml version="1.0"?><catalog><book>A</book></catalog>'), 'application/xml');
    expect(other.markdown).toBe('```xml\n<?xml version="1.0"?><catalog><book>A</book></catalog>\n```');
  });

  it('extracts PDF text page by page, separated by thematic breaks', async () => {
    const pdf = makePdf([['Annual report', 'Revenue grew (a lot).'], ['Second page']], 'Annual Report 2024');
    const doc = await run(pdf, 'application/pdf');
    expect(doc).toEqual({
      title: 'Annual Report 2024',
      markdown: 'Annual report\nRevenue grew (a lot).\n\n---\n\nSecond page',
      contentType: 'application/pdf',
    });
  });

  it('reads a PDF labelled application/octet-stream, and refuses an unreadable one', async () => {
    const pdf = makePdf([['Stored in a bucket']], 'Bucket');
    expect((await run(pdf, 'application/octet-stream')).markdown).toBe('Stored in a bucket');
    const error = await expect415(pdf.subarray(0, 120), 'application/pdf');
    expect(error.message).toMatch(/PDF could not be read/);
  });

  it('refuses images, audio, video, archives, octet-stream and unknown binary with 415', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    for (const type of ['image/png', 'audio/mpeg', 'video/mp4', 'application/zip', 'application/gzip', 'font/woff2']) {
      await expect415(png, type);
    }
    const error = await expect415(new Uint8Array([0, 1, 2, 3]), 'application/octet-stream');
    expect(error.message).toContain('application/octet-stream');
    await expect415(new Uint8Array([0, 1, 2, 3]), 'application/x-custom-binary');
  });

  it('serves an unknown but textual type as text', async () => {
    const doc = await run(utf8('export const a = 1;\n'), 'application/javascript');
    expect(doc).toEqual({ title: '', markdown: 'export const a = 1;\n', contentType: 'application/javascript' });
  });

  it('sniffs a body sent without content type', async () => {
    const html = await run(utf8('<!doctype html><title>Sniffed</title><p>Hello <a href="x">there</a>.</p>'), null);
    expect(html).toEqual({
      title: 'Sniffed',
      markdown: 'Hello [there](https://feeds.example.com/blog/x).',
      contentType: 'text/html',
    });
    expect((await run(utf8(RSS), null)).contentType).toBe('application/rss+xml');
    expect((await run(utf8('[1,2]'), null)).markdown).toBe('```json\n[\n  1,\n  2\n]\n```');
    expect(await run(utf8('plain words'), null)).toEqual({
      title: '',
      markdown: 'plain words',
      contentType: 'text/plain',
    });
    expect((await run(makePdf([['Sniffed PDF']], 'P'), null)).markdown).toBe('Sniffed PDF');
    await expect415(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]), null);
    await expect415(new Uint8Array([0, 0, 0, 0, 9, 9]), null);
  });
});
