import { packageVersion } from '../domain/package-version.ts';

/**
 * How Scout names itself to search engines and APIs: the product, its version and, when the
 * operator gave one (SCOUT_CONTACT), how to reach them. Wikimedia's User-Agent policy asks
 * automated clients for a contact; other engines' operators can use it to write instead of
 * blocking. Fetched pages get a different, browser-compatible agent (src/fetch).
 */
export function scoutUserAgent(contact: string, version: string = packageVersion()): string {
  const who = contact.trim();
  return `Scout/${version} (self-hosted search gateway${who ? `; contact: ${who}` : ''})`;
}
