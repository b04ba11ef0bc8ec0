import { parse } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { assertDecodableParams } from './query-encoding.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Form bodies (application/x-www-form-urlencoded) in `scope` only, for the shapes whose
 * clients post forms (SearXNG). Decoded as strictly as the JSON body and the query string:
 * bytes that are not UTF-8, or a bad escape in a parameter in `checked`, are 400, never
 * searched as changed text. Parsed into the query string's shape (a repeated name: a list).
 */
export function registerFormBody(scope: FastifyInstance, checked: ReadonlySet<string>): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
    if (request.headers['content-encoding'] !== undefined && request.headers['content-encoding'] !== 'identity') {
      done(new DomainError('invalid', 'Content-Encoding is not supported on requests; send the form uncompressed'));
      return;
    }
    try {
      const text = utf8.decode(body as Buffer);
      assertDecodableParams(text, checked);
      done(null, { ...parse(text) });
    } catch (e) {
      done(
        e instanceof DomainError
          ? e
          : new DomainError('invalid', 'request body is not valid UTF-8; send the form as UTF-8'),
      );
    }
  });
}
