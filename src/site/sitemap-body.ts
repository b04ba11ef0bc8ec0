import { Readable } from 'node:stream';
import { readBody } from '../fetch/decompress.ts';

/**
 * A fetched sitemap's bytes as text. A gzipped sitemap (`sitemap.xml.gz`, served as
 * application/gzip, not as a Content-Encoding the fetch pipeline already undid) is recognised
 * by its magic bytes whatever its name or type, and decompressed as a stream cut at
 * SITEMAP_MAX_BYTES: a gzip bomb (a few MB that inflate to gigabytes) costs at most that much
 * memory and the time to inflate it, and what came before the cut is still read. Sitemaps are
 * UTF-8 (the protocol says so).
 */

/** Bytes of one sitemap read at most, decompressed: about 50,000 entries of 200 bytes. */
export const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;

export interface SitemapText {
  text: string;
  /** True when the sitemap was longer than SITEMAP_MAX_BYTES (decompressed) and was cut there. */
  cut: boolean;
}

const isGzip = (body: Uint8Array): boolean => body[0] === 0x1f && body[1] === 0x8b;

export async function sitemapText(body: Uint8Array, maxBytes = SITEMAP_MAX_BYTES): Promise<SitemapText> {
  let bytes = body;
  let cut = false;
  if (isGzip(body)) {
    const read = await readBody(Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)]), ['gzip'], {
      maxWireBytes: body.byteLength + 1,
      maxDecodedBytes: maxBytes,
    });
    bytes = read.body;
    cut = read.truncated;
  } else if (body.byteLength > maxBytes) {
    bytes = body.subarray(0, maxBytes);
    cut = true;
  }
  return { text: new TextDecoder('utf-8').decode(bytes), cut };
}
