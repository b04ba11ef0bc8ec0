import { decodeBody } from './charset.ts';
import { kindOf, parseContentType } from './media-type.ts';

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

const isPdf = (body: Uint8Array, mediaType: string | null): boolean =>
  (mediaType !== null && kindOf(mediaType) === 'pdf') || PDF_MAGIC.every((b, i) => body[i] === b);

/**
 * A fetched body as the text it is (the Firecrawl shape's `rawHtml`): decoded with the
 * charset extraction used, nothing removed. A PDF has no such text: undefined.
 */
export function rawText(body: Uint8Array, contentType: string | null, mediaType: string | null): string | undefined {
  if (isPdf(body, mediaType)) return undefined;
  const kind = mediaType === null ? null : kindOf(mediaType);
  const markup = kind === null || kind === 'html' || kind === 'xml' || kind === 'feed';
  return decodeBody(body, parseContentType(contentType)?.charset ?? null, markup);
}
