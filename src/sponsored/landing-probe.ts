import { Agent } from 'undici';
import type { LookupFunction } from '../fetch/url-guard.ts';

/**
 * One request to one hop of a landing page, to learn where it redirects. Connects only to
 * addresses the URL guard's `lookup` checked (the checked address is the one used, as for
 * fetch); IP literals are checked by the caller, since net never calls `lookup` for them.
 * Reads the status and Location only: the body is never read and the connection is closed
 * (`reset`), so a check leaves no socket behind (the CLI exits at once).
 */

export interface LandingHop {
  status: number;
  location: string | string[] | undefined;
}

/** GETs `url` without following redirects. Throws what the transport throws (a refusal from `lookup` unchanged). */
export type LandingProbe = (url: URL, signal: AbortSignal) => Promise<LandingHop>;

// Named so an advertiser's logs say why Scout asked; it is a GET like the fetch a browser makes.
const HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; ScoutLandingCheck/0.1)',
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
};

export function createLandingProbe(o: { lookup: LookupFunction; ca?: string | Buffer }): LandingProbe {
  let agent: Agent | undefined;
  // Built on first use: a process that never checks a landing page opens nothing.
  const dispatcher = (): Agent =>
    (agent ??= new Agent({
      connect: { lookup: o.lookup, autoSelectFamily: true, ...(o.ca === undefined ? {} : { ca: o.ca }) },
    }));
  return async (url, signal) => {
    const res = await dispatcher().request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: HEADERS,
      signal,
      reset: true,
    });
    // undici's body emits an error when destroyed unread: listen, or it is uncaught.
    res.body.on('error', () => {}).destroy();
    return { status: res.statusCode, location: res.headers.location };
  };
}
