/**
 * Path keys (SCOUT_PATH_KEYS, docs/compat.md): the compat routes also answer under
 * `/k/<key>/…` for clients that can only hold a URL. The key is a secret in a URL, so every
 * place Scout writes a request's path (logs, error messages, trace attributes) writes it
 * through redactPathKey.
 */
export const PATH_KEY_PREFIX = '/k/';

/** The route of `path` under a path key, as Fastify declares it. */
export const underPathKey = (path: string): string => `${PATH_KEY_PREFIX}:key${path}`;

// The router decodes the path before matching, so `/%6B/<key>/search` reaches the route too;
// any case is redacted (a path that does not match a route loses nothing worth keeping).
const KEY_SEGMENT = /^\/(?:k|%6b)\/[^/?#]*/i;

/** `/k/<anything>/rest?query` → `/k/[redacted]/rest?query`; any other path unchanged. */
export const redactPathKey = (url: string): string => url.replace(KEY_SEGMENT, '/k/[redacted]');
