import { createAddressPolicy } from '../fetch/address-policy.ts';
import { DEFAULT_LIMITS } from '../fetch/http-fetch.ts';
import { toOriginError } from '../fetch/origin-errors.ts';
import { createRedirectTrail, isRedirectStatus, redirectTarget } from '../fetch/redirects.ts';
import {
  createUrlGuard,
  defaultResolver,
  dnsFailureReason,
  isBlockedPort,
  isLocalhostName,
  literalAddress,
  type Resolver,
} from '../fetch/url-guard.ts';
import { DomainError, isDomainError } from '../domain/errors.ts';
import { createLandingProbe, type LandingProbe } from './landing-probe.ts';

/**
 * Whether a campaign's landing URL leads somewhere public, by the fetch pipeline's address
 * policy. The click URL `GET /v1/r/<rec_id>` sends browsers to it, so a landing page on a
 * private address (Scout's admin API on 127.0.0.1, a cloud metadata address, an intranet
 * host) would make every impression a redirect into that network; so would a public page
 * that redirects there, which the browser follows. So the landing page is requested and its
 * redirects followed as fetch follows them (every hop judged by the same policy, the checked
 * address the one connected to, at most 10 hops, no loops), when a campaign is stored and
 * again on every click: a name can be re-pointed after it was checked (DNS rebinding), and a
 * redirect changed. A server that answers Scout differently from browsers is not caught.
 */

export type LandingVerdict =
  | { ok: true }
  /** The URL, an address its host resolves to, or a URL it redirects to is refused by the policy. `via`: the redirect's host. */
  | { ok: false; kind: 'refused'; problem: string; via?: string }
  /** A host could not be resolved; `temporary` when trying again may help. */
  | { ok: false; kind: 'unresolved'; temporary: boolean; reason: string; problem: string; via?: string }
  /** The landing page (or a hop) did not answer usefully, so where it leads is unknown. */
  | { ok: false; kind: 'unreachable'; reason: string; problem: string };

type Refusal = Exclude<LandingVerdict, { ok: true }>;

export interface LandingCheck {
  /**
   * What the URL shows by itself: scheme, credentials, blocked port, localhost names and IP
   * literals (in every notation `new URL()` normalises). Synchronous, so the campaign validator
   * lists it with every other problem of the file.
   */
  urlProblem(url: URL): string | undefined;
  /** `urlProblem`, then each host resolved and judged, the page requested and its redirects followed. Never throws. */
  check(url: URL): Promise<LandingVerdict>;
}

interface LandingCheckBase {
  /** SCOUT_FETCH_ALLOW_CIDRS: reachable although special, exactly as for fetch. */
  allowCidrs: readonly string[];
  /** The whole check, every hop included (default 10 s, SCOUT_FETCH_TIMEOUT_MS's default). */
  timeoutMs?: number;
  /** Redirect hops followed at most (default 10, as fetch). */
  maxRedirects?: number;
}

/**
 * `resolver`: host name resolution, default the system resolver (the one fetch uses).
 * `probe`: the request to each hop, default HTTP through the checked addresses. A stub
 * resolver comes with a stub probe (the type says so): a real request to the public address
 * a stub made up would leave the machine.
 */
export type LandingCheckOptions = LandingCheckBase &
  ({ resolver?: undefined; probe?: LandingProbe } | { resolver: Resolver; probe: LandingProbe });

const NOT_PUBLIC = 'url must be a public http(s) URL';

export function createLandingCheck(o: LandingCheckOptions): LandingCheck {
  const policy = createAddressPolicy(o.allowCidrs);
  const resolver = o.resolver ?? defaultResolver;
  const probe = o.probe ?? createLandingProbe({ lookup: createUrlGuard({ policy, resolver }).lookup });
  const timeoutMs = o.timeoutMs ?? 10_000;
  const maxRedirects = o.maxRedirects ?? DEFAULT_LIMITS.maxRedirects;

  const urlProblem = (url: URL): string | undefined => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
    if (url.username !== '' || url.password !== '') return 'url must not carry a user name or password';
    if (isBlockedPort(url.port))
      return `url must not use port ${url.port}: browsers and Scout’s fetch refuse it (WHATWG Fetch blocked ports)`;
    if (isLocalhostName(url.hostname)) return `${NOT_PUBLIC}; ${url.hostname} is a loopback name`;
    const literal = literalAddress(url.hostname);
    if (literal === null) return undefined;
    const verdict = policy.check(literal);
    return verdict.allowed ? undefined : `${NOT_PUBLIC}; ${literal} is not a public address (${verdict.reason})`;
  };

  /** One URL by itself and its host's addresses now; undefined when it may be requested. */
  async function hostVerdict(url: URL): Promise<Refusal | undefined> {
    const problem = urlProblem(url);
    if (problem !== undefined) return { ok: false, kind: 'refused', problem };
    if (literalAddress(url.hostname) !== null) return undefined;
    const host = url.hostname;
    let answers: { address: string }[];
    try {
      answers = await resolver(host);
    } catch (err) {
      return unresolved(host, dnsFailureReason(err));
    }
    if (answers.length === 0) return unresolved(host, 'no such host');
    // Operators (CLI, admin token) see the address: they need it to fix their DNS.
    for (const { address } of answers) {
      const verdict = policy.check(address);
      if (!verdict.allowed)
        return {
          ok: false,
          kind: 'refused',
          problem: `${NOT_PUBLIC}; ${host} resolves to ${address}, which is not a public address (${verdict.reason})`,
        };
    }
    return undefined;
  }

  /** A hop's verdict, said of the redirect that led to it (hop 0 is the url itself). */
  const viaRedirect = (v: Refusal, from: URL, to: URL): LandingVerdict =>
    v.kind === 'unreachable'
      ? v
      : { ...v, via: to.hostname, problem: `url ${from.href} redirects to ${to.href}, which is refused: ${v.problem}` };

  return {
    urlProblem,
    async check(start) {
      const signal = AbortSignal.timeout(timeoutMs);
      const trail = createRedirectTrail(start, maxRedirects);
      let from = start;
      for (let url = start, hop = 0; ; hop += 1) {
        const refused = await hostVerdict(url);
        if (refused !== undefined) return hop === 0 ? refused : viaRedirect(refused, from, url);
        let next: URL;
        try {
          const answer = await probe(url, signal);
          if (!isRedirectStatus(answer.status)) return { ok: true };
          next = redirectTarget(url, answer.location, answer.status);
          trail.follow(next);
        } catch (err) {
          const e = signal.aborted
            ? new DomainError('timeout', `no answer within ${timeoutMs / 1000} s`)
            : toOriginError(err, url.host);
          // The guard's lookup refuses an address that changed since `hostVerdict` (rebinding).
          if (isDomainError(e) && e.kind === 'forbidden') {
            const refusal: Refusal = {
              ok: false,
              kind: 'refused',
              problem: `${NOT_PUBLIC}; ${url.hostname} resolves to an address that is not public`,
            };
            return hop === 0 ? refusal : viaRedirect(refusal, from, url);
          }
          return {
            ok: false,
            kind: 'unreachable',
            reason: e.message,
            problem: `could not check where url ${start.href} leads (${url.href}: ${e.message})`,
          };
        }
        from = url;
        url = next;
      }
    },
  };
}

function unresolved(
  host: string,
  reason: ReturnType<typeof dnsFailureReason>,
): Extract<LandingVerdict, { kind: 'unresolved' }> {
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
