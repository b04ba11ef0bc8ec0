import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * Request bodies: JSON only, and strictly UTF-8 (RFC 8259). Fastify's own JSON parser would
 * turn invalid bytes into U+FFFD and run the search on a changed query; its text/plain
 * parser would accept a JSON text under the wrong type. Both are replaced; prototype
 * poisoning keys are still refused by Fastify's parser, with our own message.
 */
export function registerJsonBody(app: FastifyInstance, options: { emptyIsNone?: boolean } = {}): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (request.headers['content-encoding'] !== undefined && request.headers['content-encoding'] !== 'identity') {
      done(
        new DomainError('invalid', 'Content-Encoding is not supported on requests; send the JSON body uncompressed'),
        undefined,
      );
      return;
    }
    // Where a JSON Content-Type on an empty body means "no body" (POST /search: the SearXNG
    // parameters are in the query string), the route sees no body instead of a parse error.
    if (options.emptyIsNone === true && (body as Buffer).length === 0) {
      done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new DomainError('invalid', 'request body is not valid UTF-8; send JSON encoded as UTF-8'), undefined);
      return;
    }
    parseJson(request, text, (err, value) => {
      // Fastify's parser hides why it failed: valid JSON refused here is prototype poisoning.
      if (err && (err as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && parses(text)) {
        done(
          new DomainError('invalid', 'request body must not contain "__proto__" or "constructor.prototype" keys'),
          undefined,
        );
      } else done(err, value);
    });
  });
}
