import ipaddr from 'ipaddr.js';

/** Parsers for environment values. Each throws a message that completes "NAME <message>". */
export type Parser<T> = (raw: string) => T;

export const int =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new Error(`must be an integer from ${min} to ${max}, got "${raw}"`);
    const n = Number(raw.trim());
    if (n < min || n > max) throw new Error(`must be an integer from ${min} to ${max}, got ${n}`);
    return n;
  };

/** A decimal number (e.g. 0.5) from min to max. */
export const decimal =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^\d+(\.\d+)?$|^\.\d+$/.test(raw.trim()))
      throw new Error(`must be a number from ${min} to ${max}, got "${raw}"`);
    const n = Number(raw.trim());
    if (n < min || n > max) throw new Error(`must be a number from ${min} to ${max}, got ${n}`);
    return n;
  };

export const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`must be true or false, got "${raw}"`);
};

export const str: Parser<string> = (raw) => raw;

export const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    const v = raw.trim().toLowerCase();
    if ((values as string[]).includes(v)) return v as T;
    throw new Error(`must be one of ${values.join(', ')}, got "${raw}"`);
  };

export const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

export const url: Parser<string> = (raw) => {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new Error(`must be an absolute http(s) URL, got "${raw}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`must be an http(s) URL, got "${raw}"`);
  return u.toString().replace(/\/$/, '');
};

export const optionalUrl: Parser<string | undefined> = (raw) => (raw.trim() === '' ? undefined : url(raw));

export const cidrList: Parser<string[]> = (raw) =>
  list(raw).map((c) => {
    try {
      const [addr, bits] = ipaddr.parseCIDR(c);
      return `${addr.toString()}/${bits}`;
    } catch {
      throw new Error(`must be a comma-separated list of CIDRs such as 127.0.0.2/32, got "${c}"`);
    }
  });

/** An integer in range, or undefined when unset: for settings whose absence defers to another system's default. */
export const optionalInt =
  (min: number, max: number): Parser<number | undefined> =>
  (raw) =>
    raw.trim() === '' ? undefined : int(min, max)(raw);

/**
 * Comma-separated base URLs of one service's nodes (http or https, no credentials, query or
 * fragment: credentials have settings of their own, so they never end up in logs).
 */
export const urlList: Parser<string[]> = (raw) =>
  list(raw).map((entry) => {
    const u = url(entry);
    const parsed = new URL(u);
    if (parsed.username !== '' || parsed.password !== '')
      throw new Error(`must not carry credentials in the URL, got a URL with a user name or password`);
    if (parsed.search !== '' || parsed.hash !== '')
      throw new Error(`must be base URLs without a query or fragment, got "${entry}"`);
    return u;
  });
