import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { campaignFile, ctx, searchQuery } from '../sponsored/sponsored-fixture.ts';
import { sponsoredApp, type SponsoredApp } from './sponsored-app.ts';

let s: SponsoredApp;
let path: string;
beforeAll(async () => {
  s = await sponsoredApp();
  await s.h.create(campaignFile({ url: 'https://shop.acme.example/shoes?ref=scout' }));
  const [ad] = (await s.h.sponsored.stage.select(searchQuery('running shoes'), ctx())).map((p) => p.result);
  path = new URL(ad?.url as string).pathname;
});
afterAll(() => s.close());

const report = async () => {
  await s.h.sponsored.flush();
  return (await s.h.sponsored.admin.report()).campaigns[0];
};

describe('GET /v1/r/<rec_id>', () => {
  it('answers 302 to the landing page without an API key, uncacheable, and records a click', async () => {
    const res = await s.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://shop.acme.example/shoes?ref=scout');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await report()).toMatchObject({ clicks: 1, agent_reads: 0, spend_micros: 0 });
  });

  it('HEAD redirects the same way but is not a click', async () => {
    const res = await s.app.inject({ method: 'HEAD', url: path });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://shop.acme.example/shoes?ref=scout');
    expect(await report()).toMatchObject({ clicks: 1 });
  });

  it('an unknown or malformed rec_id is 404 with the Error shape', async () => {
    for (const url of ['/v1/r/rec_0000000000000000000000000', '/v1/r/whatever']) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expectShape(ErrorBody, res.json());
      expect(res.json().error.message).toContain('unknown or expired sponsored link');
    }
  });

  it('an expired rec_id is 404', async () => {
    s.h.clock.now = new Date(s.h.clock.now.getTime() + 31 * 86_400_000);
    expect((await s.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
  });
});
