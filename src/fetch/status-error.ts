import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { DomainError } from '../domain/errors.ts';
import { decodeBody } from '../extract/charset.ts';
import { parseContentEncoding, readBody } from './decompress.ts';
import { blockFromHeaders, findBlockPage } from '../extract/html/block-page.ts';
import { pageSignals } from '../extract/html/page-signals.ts';
import { blockPageError } from '../extract/html/unreadable-page.ts';
import { parseContentType } from '../extract/media-type.ts';

/**
 * The error for an origin answer with a non-redirect status >= 300. A 403, 429 or 503 is
 * often a bot challenge or a WAF block page rather than a plain refusal, and the agent acts
 * differently on each (retrying later helps a 503, never a challenge): when the headers or a
 * small prefix of an HTML body name one, the message says so; otherwise it is
 * `origin answered 403 (Forbidden)`. Interstitials are a few KB, so 64 KB is enough; the
 * rest of a bigger body is not read (the connection is closed rather than drained).
 */

export const STATUS_BODY_PREFIX = 64 * 1024;

type Headers = Record<string, string | string[] | undefined>;
/** undici's response body: a Readable that can also drain itself up to a limit. */
type Body = Readable & { dump(options: { limit: number }): Promise<void> };

const first = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

export const plainStatusError = (status: number): DomainError =>
  new DomainError('upstream', `origin answered ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''}`);

/** Interstitials are HTML; some are sent without a Content-Type. */
const mayBeHtml = (mediaType: string | undefined): boolean =>
  mediaType === undefined || mediaType.includes('html') || mediaType === 'text/plain';

/** Never throws: a body that cannot be read (reset, corrupt, unknown coding) leaves the plain status error. */
export async function statusError(status: number, headers: Headers, body: Body): Promise<DomainError> {
  const fromHeaders = blockFromHeaders(headers);
  const type = parseContentType(first(headers['content-type']));
  if (fromHeaders !== null || !mayBeHtml(type?.mediaType)) {
    // Not awaited: a small body is drained for keep-alive in the background, a big one cut.
    body.dump({ limit: STATUS_BODY_PREFIX }).catch(() => {});
    return fromHeaders === null ? plainStatusError(status) : blockPageError(fromHeaders, status);
  }
  try {
    const codings = parseContentEncoding(headers['content-encoding']);
    const read = await readBody(body, codings, {
      maxWireBytes: STATUS_BODY_PREFIX,
      maxDecodedBytes: STATUS_BODY_PREFIX,
    });
    const found = findBlockPage(pageSignals(decodeBody(read.body, type?.charset ?? null, true)));
    return found === null ? plainStatusError(status) : blockPageError(found, status);
  } catch {
    body.on('error', () => {}).destroy();
    return plainStatusError(status);
  }
}
