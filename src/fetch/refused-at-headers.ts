import type { DomainError } from '../domain/errors.ts';
import { GENERIC_BINARY, unsupported } from '../extract/extract-document.ts';
import { kindOf, parseContentType } from '../extract/media-type.ts';

/**
 * The 415 a declared Content-Type earns whatever its bytes (images, audio, video, archives),
 * decided from the headers so the body is never downloaded. Generic binary labels are left to
 * extraction, which looks at the bytes: object stores label PDFs application/octet-stream.
 */
export function refusedAtHeaders(header: string | null): DomainError | undefined {
  const type = parseContentType(header);
  if (type === null || GENERIC_BINARY.has(type.mediaType)) return undefined;
  return kindOf(type.mediaType) === 'unsupported' ? unsupported(type.mediaType) : undefined;
}
