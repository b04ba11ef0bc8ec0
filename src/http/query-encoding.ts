import { DomainError } from '../domain/errors.ts';

const decode = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};

/**
 * Fastify's query-string parser keeps what it cannot percent-decode as it is, so `q=%FF` would
 * be searched as the three characters "%FF", where POST refuses a body that is not UTF-8.
 * Every parameter of the raw query string is checked instead, and the first bad one named.
 * Undecodable means a malformed escape (`100%`) or bytes that are not UTF-8 (`%FF`, `caf%E9`).
 */
export function assertDecodableQuery(url: string): void {
  const start = url.indexOf('?');
  if (start < 0) return;
  assertDecodableParams(url.slice(start + 1));
}

/**
 * The same check on `a=1&b=2` text (a query string without its `?`, a form body). `only`:
 * the parameters a lenient shape reads; the others it ignores, whatever their encoding.
 */
export function assertDecodableParams(text: string, only?: ReadonlySet<string>): void {
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    if (only !== undefined && (name === undefined || !only.has(name))) continue;
    if (name === undefined) {
      throw new DomainError(
        'invalid',
        'a query parameter name is not valid percent-encoded UTF-8; encode it as UTF-8, and a literal % as %25',
      );
    }
    if (eq >= 0 && decode(pair.slice(eq + 1)) === undefined) {
      throw new DomainError(
        'invalid',
        `${name.slice(0, 50)} is not valid percent-encoded UTF-8; encode the text as UTF-8, and a literal % as %25`,
      );
    }
  }
}
