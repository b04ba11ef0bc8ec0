import { DomainError } from '../domain/errors.ts';

/**
 * Bookkeeping for redirects followed by hand (undici's request() follows none): at most
 * `maxHops` hops, no URL visited twice. Each new URL still goes through the URL guard.
 */

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export const isRedirectStatus = (status: number): boolean => REDIRECT_STATUSES.has(status);

/** The URL a redirect points to, resolved against the current URL; a fragment is inherited (Fetch §4.4). */
export function redirectTarget(current: URL, location: string | string[] | undefined, status: number): URL {
  const value = Array.isArray(location) ? location[0] : location;
  if (value === undefined || value.trim() === '') {
    throw new DomainError('upstream', `origin answered ${status} without a Location header`);
  }
  let next: URL;
  try {
    next = new URL(value.trim(), current);
  } catch {
    throw new DomainError('upstream', `origin answered ${status} with an unusable Location header`);
  }
  if (next.hash === '' && current.hash !== '') next.hash = current.hash;
  return next;
}

const withoutHash = (url: URL): string => url.href.replace(/#.*$/, '');

export interface RedirectTrail {
  /** Records a hop to `next`; throws DomainError('upstream') on a loop or one hop too many. */
  follow(next: URL): void;
}

export function createRedirectTrail(start: URL, maxHops: number): RedirectTrail {
  const seen = new Set([withoutHash(start)]);
  let hops = 0;
  return {
    follow(next) {
      const key = withoutHash(next);
      if (seen.has(key)) throw new DomainError('upstream', `redirect loop: ${start.href} leads back to ${next.href}`);
      hops += 1;
      if (hops > maxHops)
        throw new DomainError('upstream', `too many redirects: ${start.href} redirected more than ${maxHops} times`);
      seen.add(key);
    },
  };
}
