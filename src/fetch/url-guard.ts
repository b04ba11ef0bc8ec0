import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.ts';
import { DomainError } from '../domain/errors.ts';

/**
 * Checks a URL before anything is sent, and resolves host names so that only checked
 * addresses are ever connected to. Two paths, because undici (like node:net) never calls a
 * `lookup` for IP-literal hosts: literals are judged in `checkUrl`, names in `lookup`, which
 * the HTTP agent installs as its connect lookup so the address checked is the address used.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** net/tls `lookup` option signature (the shape undici's connector hands to net.connect). */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export interface UrlGuard {
  /**
   * Scheme, credentials, bad port, localhost names and IP literals. `origin` says who chose the
   * URL: a caller's bad URL is 400, an origin redirecting somewhere unusable is 502. Refused
   * destinations are 403 either way.
   */
  checkUrl(url: URL, origin: 'caller' | 'redirect'): void;
  /** Resolves a host name and checks every answer; all returned addresses are allowed. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
  /** `resolve` in the shape of net.connect's `lookup` option. */
  lookup: LookupFunction;
}

/** WHATWG Fetch "bad port" list (https://fetch.spec.whatwg.org/#port-blocking), port 0 included since 2025. */
const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export const defaultResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Parses the caller's URL: unparsable or not http(s) is 400. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('invalid', 'url is not a valid absolute URL; send a full http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DomainError(
      'invalid',
      `url scheme ${url.protocol} is not supported; only http and https URLs can be fetched`,
    );
  }
  return url;
}

/** `s` without trailing dots (a loop: `/\.+$/` is quadratic on a run of dots). */
const withoutTrailingDots = (s: string): string => {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 46) end--;
  return s.slice(0, end);
};

/** A URL's `port` (empty for the scheme's default) is on the WHATWG Fetch blocked list. */
export const isBlockedPort = (port: string): boolean => port !== '' && BAD_PORTS.has(Number(port));

/** `localhost` and every `*.localhost` name (RFC 6761), trailing dots ignored: loopback without a lookup. */
export const isLocalhostName = (hostname: string): boolean => {
  const name = withoutTrailingDots(hostname);
  return name === 'localhost' || name.endsWith('.localhost');
};

const refused = (what: string, reason: string): DomainError =>
  new DomainError(
    'forbidden',
    `refused: ${what} is not a public address (${reason}); private, loopback and reserved addresses cannot be fetched`,
  );

/** The literal IP of a URL host (brackets removed), or null for a domain name. */
export const literalAddress = (hostname: string): string | null => {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
};

/** Why a lookup failed, in words; `undefined` is an empty answer. */
export const dnsFailureReason = (
  err: unknown,
): 'no such host' | 'DNS lookup failed temporarily' | 'DNS lookup failed' => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOTFOUND' || code === 'ENODATA'
    ? 'no such host'
    : code === 'EAI_AGAIN'
      ? 'DNS lookup failed temporarily'
      : 'DNS lookup failed';
};

const dnsFailure = (hostname: string, err: unknown): DomainError =>
  new DomainError('upstream', `could not resolve ${hostname} (${dnsFailureReason(err)})`, { cause: err });

export function createUrlGuard(deps: { policy: AddressPolicy; resolver?: Resolver | undefined }): UrlGuard {
  const { policy } = deps;
  const resolver = deps.resolver ?? defaultResolver;

  const checkAddress = (address: string, what: string): void => {
    const verdict = policy.check(address);
    if (!verdict.allowed) throw refused(what, verdict.reason);
  };

  const checkUrl: UrlGuard['checkUrl'] = (url, origin) => {
    const bad = (message: string): DomainError =>
      origin === 'caller'
        ? new DomainError('invalid', message)
        : new DomainError('upstream', `origin redirected to an unusable URL: ${message}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw bad(`scheme ${url.protocol} is not supported; only http and https`);
    if (url.username !== '' || url.password !== '')
      throw bad('URLs with credentials (user:password@) are not accepted; remove them');
    if (isBlockedPort(url.port)) {
      throw new DomainError('forbidden', `refused: port ${url.port} is on the WHATWG Fetch list of blocked ports`);
    }
    if (isLocalhostName(url.hostname)) throw refused(url.hostname, 'loopback name');
    const literal = literalAddress(url.hostname);
    if (literal !== null) checkAddress(literal, literal);
  };

  const resolve: UrlGuard['resolve'] = async (hostname) => {
    if (isLocalhostName(hostname)) throw refused(hostname, 'loopback name');
    const literal = literalAddress(hostname);
    if (literal !== null) {
      checkAddress(literal, literal);
      return [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }];
    }
    let answers: ResolvedAddress[];
    try {
      answers = await resolver(hostname);
    } catch (err) {
      throw dnsFailure(hostname, err);
    }
    if (answers.length === 0) throw dnsFailure(hostname, undefined);
    // The caller learns that the name is refused, never which internal address or range it
    // resolves to (that would let any key holder map split-horizon DNS).
    for (const a of answers) {
      if (!policy.check(a.address).allowed) {
        throw new DomainError(
          'forbidden',
          `refused: ${hostname} resolves to an address that is not public; private, loopback and reserved addresses cannot be fetched`,
        );
      }
    }
    return answers.map((a) => ({ address: a.address, family: isIP(a.address) === 6 ? 6 : 4 }));
  };

  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const wanted =
          options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
        const [first] = wanted;
        if (first === undefined) return callback(dnsFailure(hostname, undefined), '', undefined);
        if (options.all === true) return callback(null, wanted);
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', undefined),
    );
  };

  return { checkUrl, resolve, lookup };
}
