import { createAddressPolicy } from '../fetch/address-policy.ts';
import { defaultResolver, dnsFailureReason, isBlockedPort, isLocalhostName, literalAddress, type Resolver } from '../fetch/url-guard.ts';

/**
 * Whether a campaign's landing URL leads somewhere public, by the fetch pipeline's address
 * policy. The click URL `GET /v1/r/<rec_id>` sends browsers to it, so a landing page on a
 * private address (Scout's admin API on 127.0.0.1, a cloud metadata address, an intranet
 * host) would make every impression a redirect into that network. Checked when a campaign is
 * stored, host names resolved, and again on every click: a name can be re-pointed after it
 * was checked (DNS rebinding).
 */

export type LandingVerdict =
  | { ok: true }
  /** The URL, or an address its host resolves to, is refused by the policy. */
  | { ok: false; kind: 'refused'; problem: string }
  /** The host could not be resolved; `temporary` when trying again may help. */
  | { ok: false; kind: 'unresolved'; temporary: boolean; reason: string; problem: string };

export interface LandingCheck {
  /**
   * What the URL shows by itself: scheme, credentials, blocked port, localhost names and IP
   * literals (in every notation `new URL()` normalises). Synchronous, so the campaign validator
   * lists it with every other problem of the file.
   */
  urlProblem(url: URL): string | undefined;
  /** `urlProblem`, then a host name resolved and every answer judged. Never throws. */
  check(url: URL): Promise<LandingVerdict>;
}

export interface LandingCheckOptions {
  /** SCOUT_FETCH_ALLOW_CIDRS: reachable although special, exactly as for fetch. */
  allowCidrs: readonly string[];
  /** Host name resolution; default the system resolver (the one fetch uses). Tests pass a stub. */
  resolver?: Resolver;
}

const NOT_PUBLIC = 'url must be a public http(s) URL';

export function createLandingCheck(o: LandingCheckOptions): LandingCheck {
  const policy = createAddressPolicy(o.allowCidrs);
  const resolver = o.resolver ?? defaultResolver;

  const urlProblem = (url: URL): string | undefined => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
    if (url.username !== '' || url.password !== '') return 'url must not carry a user name or password';
    if (isBlockedPort(url.port)) return `url must not use port ${url.port}: browsers and Scout’s fetch refuse it (WHATWG Fetch blocked ports)`;
    if (isLocalhostName(url.hostname)) return `${NOT_PUBLIC}; ${url.hostname} is a loopback name`;
    const literal = literalAddress(url.hostname);
    if (literal === null) return undefined;
    const verdict = policy.check(literal);
    return verdict.allowed ? undefined : `${NOT_PUBLIC}; ${literal} is not a public address (${verdict.reason})`;
  };

  return {
    urlProblem,
    async check(url) {
      const problem = urlProblem(url);
      if (problem !== undefined) return { ok: false, kind: 'refused', problem };
      if (literalAddress(url.hostname) !== null) return { ok: true };
      const host = url.hostname;
      let answers: { address: string }[];
      try {
        answers = await resolver(host);
      } catch (err) {
        const reason = dnsFailureReason(err);
        return unresolved(host, reason);
      }
      if (answers.length === 0) return unresolved(host, 'no such host');
      // Operators (CLI, admin token) see the address: they need it to fix their DNS.
      for (const { address } of answers) {
        const verdict = policy.check(address);
        if (!verdict.allowed) return { ok: false, kind: 'refused', problem: `${NOT_PUBLIC}; ${host} resolves to ${address}, which is not a public address (${verdict.reason})` };
      }
      return { ok: true };
    },
  };
}

function unresolved(host: string, reason: ReturnType<typeof dnsFailureReason>): LandingVerdict {
  // Only "no such host" is the caller's to fix; any other failure may pass.
  const temporary = reason !== 'no such host';
  return {
    ok: false,
    kind: 'unresolved',
    temporary,
    reason,
    problem: `url host ${host} does not resolve (${reason}); a landing page must resolve to a public address when the campaign is stored`,
  };
}
