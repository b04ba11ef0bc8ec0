import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { createLandingCheck } from '../../src/sponsored/landing-check.ts';
import type { LandingHop } from '../../src/sponsored/landing-probe.ts';
import { PUBLIC_ADDRESS, dnsError, stubProbe, stubResolver } from './sponsored-fixture.ts';

// Where a landing page redirects, judged hop by hop with an offline resolver and probe: every
// special range refused at any hop, as fetch refuses it. No packet is sent anywhere.

const START = 'https://shop.acme.example/shoes';
const redirectTo = (location: string, status = 302): LandingHop => ({ status, location });

function check(
  hops: Record<string, LandingHop | Error>,
  dns: Parameters<typeof stubResolver>[0] = {},
  allowCidrs: string[] = [],
) {
  const resolver = stubResolver(dns);
  const probe = stubProbe(hops);
  const landing = createLandingCheck({ allowCidrs, resolver: resolver.resolver, probe: probe.probe });
  return { verdict: landing.check(new URL(START)), probe, resolver };
}

describe('landing check: redirects followed as fetch follows them', () => {
  it.each([
    ['http://127.0.0.1:8080/admin', '127.0.0.1 is not a public address (loopback 127.0.0.0/8)', '127.0.0.1'],
    [
      'http://169.254.169.254/latest/meta-data/',
      '169.254.169.254 is not a public address (link-local 169.254.0.0/16)',
      '169.254.169.254',
    ],
    ['http://[::1]/', '::1 is not a public address (loopback ::1/128)', '[::1]'],
    ['http://[::ffff:10.0.0.1]/', 'IPv4-mapped form of 10.0.0.1', '[::ffff:a00:1]'],
    ['http://0x0a.0.0.1/', '10.0.0.1 is not a public address (private-use 10.0.0.0/8)', '10.0.0.1'],
    ['http://localhost:3000/', 'localhost is a loopback name', 'localhost'],
    [
      'http://intranet.acme.example/',
      'intranet.acme.example resolves to 192.168.1.5, which is not a public address (private-use 192.168.0.0/16)',
      'intranet.acme.example',
    ],
    ['gopher://shop.acme.example/', 'url must use http or https', 'shop.acme.example'],
  ])('a redirect to %s is refused, naming the redirect and the reason', async (target, reason, via) => {
    const { verdict, probe } = check(
      { [START]: redirectTo(target) },
      { 'intranet.acme.example': [{ address: '192.168.1.5', family: 4 }] },
    );
    const v = await verdict;
    expect(v).toMatchObject({ ok: false, kind: 'refused', via });
    expect(v.ok === false && v.problem).toContain(
      `url ${START} redirects to ${new URL(target).href}, which is refused: `,
    );
    expect(v.ok === false && v.problem).toContain(reason);
    // The refused hop is never requested.
    expect(probe.calls).toEqual([START]);
  });

  it('follows several hops (relative Location too) and refuses the first bad one', async () => {
    const { verdict, probe } = check({
      [START]: redirectTo('/step-2', 301),
      'https://shop.acme.example/step-2': redirectTo('https://cdn.acme.example/x', 307),
      'https://cdn.acme.example/x': redirectTo('http://10.1.2.3/', 308),
    });
    expect(await verdict).toMatchObject({ ok: false, kind: 'refused', via: '10.1.2.3' });
    expect(probe.calls).toEqual([START, 'https://shop.acme.example/step-2', 'https://cdn.acme.example/x']);
  });

  it('passes a chain that ends on a public page, whatever that page answers', async () => {
    const { verdict, probe, resolver } = check({
      [START]: redirectTo(`https://${PUBLIC_ADDRESS}/sale`),
      [`https://${PUBLIC_ADDRESS}/sale`]: { status: 404, location: undefined },
    });
    expect(await verdict).toEqual({ ok: true });
    expect(probe.calls).toHaveLength(2);
    expect(resolver.calls).toEqual(['shop.acme.example']);
  });

  it('SCOUT_FETCH_ALLOW_CIDRS applies at every hop', async () => {
    const { verdict } = check({ [START]: redirectTo('http://127.0.0.2:8080/') }, {}, ['127.0.0.2/32']);
    expect(await verdict).toEqual({ ok: true });
  });

  it('a redirect host that does not resolve is unresolved, naming the redirect', async () => {
    const { verdict } = check(
      { [START]: redirectTo('https://gone.example/') },
      { 'gone.example': dnsError('ENOTFOUND', 'gone.example') },
    );
    expect(await verdict).toMatchObject({ ok: false, kind: 'unresolved', temporary: false, via: 'gone.example' });
  });

  it('a page that does not answer, a loop or a refusal from the connect lookup: where it leads is not known', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
      address: PUBLIC_ADDRESS,
      port: 443,
    });
    expect(await check({ [START]: refused }).verdict).toMatchObject({
      ok: false,
      kind: 'unreachable',
      reason: `connection refused by ${PUBLIC_ADDRESS}:443`,
    });
    const loop = await check({ [START]: redirectTo('/b'), 'https://shop.acme.example/b': redirectTo(START) }).verdict;
    expect(loop).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(loop.ok === false && loop.problem).toContain('redirect loop');
    // DNS re-pointed between the check and the connection (the guard's lookup refuses it).
    const rebound = await check({
      [START]: new DomainError('forbidden', 'refused: shop.acme.example resolves to an address that is not public'),
    }).verdict;
    expect(rebound).toEqual({
      ok: false,
      kind: 'refused',
      problem: 'url must be a public http(s) URL; shop.acme.example resolves to an address that is not public',
    });
    const reboundLater = await check({
      [START]: redirectTo('https://cdn.acme.example/'),
      'https://cdn.acme.example/': new DomainError('forbidden', 'refused'),
    }).verdict;
    expect(reboundLater).toMatchObject({ ok: false, kind: 'refused', via: 'cdn.acme.example' });
    expect(reboundLater.ok === false && reboundLater.problem).toContain(
      `url ${START} redirects to https://cdn.acme.example/, which is refused`,
    );
  });

  it('stops after 10 redirects', async () => {
    const hops: Record<string, LandingHop> = {};
    for (let i = 0; i < 12; i++) hops[i === 0 ? START : `https://shop.acme.example/${i}`] = redirectTo(`/${i + 1}`);
    const v = await check(hops).verdict;
    expect(v).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(v.ok === false && v.problem).toContain('redirected more than 10 times');
  });
});
