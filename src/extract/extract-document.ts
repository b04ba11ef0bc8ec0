import { DomainError } from '../domain/errors.ts';

export interface ExtractInput {
  /** Bytes as read (already decompressed, possibly cut at the byte cap). */
  body: Uint8Array;
  /** The origin's Content-Type header value, parameters included, or null when absent. */
  contentType: string | null;
  /** Final URL after redirects: base for absolute links. */
  url: string;
}

export interface ExtractedDocument {
  title: string;
  markdown: string;
  /** Media type without parameters (sniffed when the origin sent none), or null. */
  contentType: string | null;
}

/**
 * Turns a fetched body into markdown. PLACEHOLDER until the extraction work lands: passes
 * text through and refuses everything else. Throws DomainError('unsupported_media').
 */
export async function extractDocument(input: ExtractInput): Promise<ExtractedDocument> {
  const mediaType = input.contentType?.split(';', 1)[0]?.trim().toLowerCase() ?? null;
  if (mediaType === null || mediaType.startsWith('text/')) {
    return { title: '', markdown: new TextDecoder().decode(input.body), contentType: mediaType };
  }
  throw new DomainError('unsupported_media', `unsupported content type ${mediaType}`);
}
