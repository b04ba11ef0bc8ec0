import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../src/fetch/address-policy.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { createUrlGuard, parseFetchUrl, type ResolvedAddress } from '../../src/fetch/url-guard.ts';

const policy = createAddressPolicy([]);

/** A resolver that records its calls and answers from a table; never touches DNS. */
function stubResolver(table: Record<string, ResolvedAddress[] | Error>) {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    calls.push(hostname);
    const answer = table[hostname];
    if (answer === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, resolver };
}

const kindOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.kind : 'other';
  }
  return 'none';
};

const kindOfAsync = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'none',
    (e) => (e instanceof DomainError ? e.kind : 'other'),
  );

describe('parseFetchUrl', () => {
  it.each(['not a url', '/relative/path', 'example.com', 'http://', 'http://exa mple.com/'])(
    'rejects unparsable %j with 400',
    (raw) => {
      expect(kindOf(() => parseFetchUrl(raw))).toBe('invalid');
    },
  );

  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/plain,hi',
    'ws://example.com/',
  ])('rejects scheme of %s with 400', (raw) => {
    expect(() => parseFetchUrl(raw)).toThrow(/only http and https/);
  });

  it('accepts http and https', () => {
    expect(parseFetchUrl('https://example.com/a?b=c').href).toBe('https://example.com/a?b=c');
  });
});

describe('url guard: checkUrl', () => {
  const { calls, resolver } = stubResolver({});
  const guard = createUrlGuard({ policy, resolver });
  const check = (raw: string, origin: 'caller' | 'redirect' = 'caller') =>
    kindOf(() => guard.checkUrl(new URL(raw), origin));

  it('rejects credentials with 400 from a caller, 502 from a redirect', () => {
    expect(check('http://user:pass@example.com/')).toBe('invalid');
    expect(check('http://user@example.com/')).toBe('invalid');
    expect(check('http://:pass@example.com/')).toBe('invalid');
    expect(check('http://user:pass@example.com/', 'redirect')).toBe('upstream');
    expect(() => guard.checkUrl(new URL('http://u:p@example.com/'), 'caller')).toThrow(/credentials/);
  });

  it.each(['0', '1', '22', '25', '110', '6000', '6667', '10080'])('refuses bad port %s with 403', (port) => {
    expect(check(`http://example.com:${port}/`)).toBe('forbidden');
  });

  it.each(['http://example.com:8080/', 'https://example.com:8443/', 'http://example.com:80/', 'https://example.com/'])(
    'allows %s',
    (raw) => {
      expect(check(raw)).toBe('none');
    },
  );

  it.each([
    'http://localhost/',
    'http://LOCALHOST./',
    'http://localhost:8080/',
    'http://foo.localhost/',
    'https://a.b.localhost./x',
  ])('refuses %s by name, without a lookup', (raw) => {
    expect(check(raw)).toBe('forbidden');
    expect(calls).toEqual([]);
  });

  // Every notation the WHATWG URL parser turns into a loopback or unspecified address.
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://127.0.1/',
    'http://127.0.0.1./',
    'http://１２７.０.０.１/',
    'http://①②⑦.⓪.⓪.①/',
    'http://127。0。0。1/',
    'http://0/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
    'http://10.0.0.1:8080/',
  ])('refuses literal %s with 403, without a lookup', (raw) => {
    expect(check(raw)).toBe('forbidden');
    expect(calls).toEqual([]);
  });

  it('says what was refused and why', () => {
    expect(() => guard.checkUrl(new URL('http://0x7f.1/'), 'caller')).toThrow(
      /127\.0\.0\.1 is not a public address \(loopback 127\.0\.0\.0\/8\)/,
    );
  });

  it('lets literals in an allow-listed range through', () => {
    const allowing = createUrlGuard({ policy: createAddressPolicy(['127.0.0.2/32']), resolver });
    expect(kindOf(() => allowing.checkUrl(new URL('http://127.0.0.2:8080/'), 'caller'))).toBe('none');
    expect(kindOf(() => allowing.checkUrl(new URL('http://127.0.0.1:8080/'), 'caller'))).toBe('forbidden');
  });
});

describe('url guard: resolve and lookup', () => {
  const { calls, resolver } = stubResolver({
    'public.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::248', family: 6 },
    ],
    'rebind.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    'mapped.test': [{ address: '::ffff:10.0.0.1', family: 6 }],
    'empty.test': [],
    'flaky.test': Object.assign(new Error('getaddrinfo EAI_AGAIN flaky.test'), { code: 'EAI_AGAIN' }),
  });
  const guard = createUrlGuard({ policy, resolver });

  it('returns every answer when all are public', async () => {
    await expect(guard.resolve('public.test')).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::248', family: 6 },
    ]);
  });

  it('refuses a name when any answer is refused, even after a public one', async () => {
    await expect(guard.resolve('rebind.test')).rejects.toThrow(
      /^refused: rebind\.test resolves to an address that is not public;/,
    );
    // The internal address is never echoed back to the caller.
    await expect(guard.resolve('rebind.test')).rejects.not.toThrow(/127\.0\.0\.1/);
    expect(await kindOfAsync(guard.resolve('mapped.test'))).toBe('forbidden');
  });

  it('reports DNS failures as 502 naming the host', async () => {
    await expect(guard.resolve('example.invalid')).rejects.toThrow('could not resolve example.invalid (no such host)');
    expect(await kindOfAsync(guard.resolve('example.invalid'))).toBe('upstream');
    await expect(guard.resolve('empty.test')).rejects.toThrow(/could not resolve empty\.test/);
    await expect(guard.resolve('flaky.test')).rejects.toThrow(/temporarily/);
  });

  it('refuses localhost names without asking the resolver', async () => {
    const before = calls.length;
    expect(await kindOfAsync(guard.resolve('localhost'))).toBe('forbidden');
    expect(await kindOfAsync(guard.resolve('x.localhost'))).toBe('forbidden');
    expect(calls.length).toBe(before);
  });

  it('serves net.connect lookups with checked addresses only', async () => {
    const lookup = (host: string, options: { all?: boolean; family?: number }) =>
      new Promise((resolve, reject) =>
        guard.lookup(host, options, (err, address, family) => (err ? reject(err) : resolve({ address, family }))),
      );
    await expect(lookup('public.test', { all: true })).resolves.toEqual({
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::248', family: 6 },
      ],
      family: undefined,
    });
    await expect(lookup('public.test', { family: 6 })).resolves.toEqual({ address: '2606:2800:220:1::248', family: 6 });
    await expect(lookup('rebind.test', { all: true })).rejects.toBeInstanceOf(DomainError);
  });
});
