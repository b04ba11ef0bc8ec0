import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Campaign, CampaignList, CampaignReport } from '../../src/schemas/campaign.ts';
import { ErrorBody } from '../../src/schemas/error.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { campaignFile } from '../sponsored/sponsored-fixture.ts';
import { ADMIN_TOKEN, sponsoredApp, type SponsoredApp } from './sponsored-app.ts';

let s: SponsoredApp;
beforeAll(async () => {
  s = await sponsoredApp();
});
afterAll(() => s.close());

const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` },
) => {
  const res = await s.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
  const json = res.body === '' ? undefined : res.json();
  if (res.statusCode >= 400) {
    expectShape(ErrorBody, json);
    expect(json.error.status).toBe(res.statusCode);
  }
  return { status: res.statusCode, body: json, headers: res.headers };
};

describe('admin API authorisation', () => {
  it('no token: 401 with WWW-Authenticate', async () => {
    const r = await call('GET', '/admin/v1/campaigns', undefined, {});
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(r.body.error.message).toContain('Authorization: Bearer <SCOUT_ADMIN_TOKEN>');
  });

  it('wrong token, an API key, or the token in x-api-key: 401', async () => {
    const attempts: Record<string, string>[] = [
      { authorization: `Bearer ${ADMIN_TOKEN}x` },
      { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${s.apiKey}` },
      { 'x-api-key': s.apiKey },
      { 'x-api-key': ADMIN_TOKEN },
      { authorization: ADMIN_TOKEN },
    ];
    for (const headers of attempts) {
      expect((await call('POST', '/admin/v1/campaigns', campaignFile(), headers)).status).toBe(401);
    }
    expect((await call('GET', '/admin/v1/campaigns')).body.campaigns).toEqual([]);
  });

  it('right token: 200 (scheme name in any case)', async () => {
    const r = await call('GET', '/admin/v1/campaigns', undefined, { authorization: `bearer ${ADMIN_TOKEN}` });
    expect(r.status).toBe(200);
    expectShape(CampaignList, r.body);
  });

  it('routes do not exist at all when SCOUT_ADMIN_TOKEN is unset', async () => {
    const off = await sponsoredApp(null);
    try {
      const res = await off.app.inject({
        method: 'GET',
        url: '/admin/v1/campaigns',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('admin API operations', () => {
  it('creates, reads, replaces, pauses, resumes, reports and deletes a campaign', async () => {
    const created = await call(
      'POST',
      '/admin/v1/campaigns',
      campaignFile({ incentive: { kind: 'trial', benefit: '30 days free' } }),
    );
    expect(created.status).toBe(201);
    expectShape(Campaign, created.body);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      status: 'active',
      disclosure: 'Sponsored · Acme',
      daily_cap_micros: null,
      incentive: { kind: 'trial' },
    });

    expect((await call('GET', `/admin/v1/campaigns/${id}`)).body).toEqual(created.body);
    const replaced = await call('PUT', `/admin/v1/campaigns/${id}`, campaignFile({ title: 'New title' }));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id,
      title: 'New title',
      created_at: created.body.created_at,
      incentive: null,
    });
    expect((await call('POST', `/admin/v1/campaigns/${id}/pause`)).body.status).toBe('paused');
    expect((await call('POST', `/admin/v1/campaigns/${id}/resume`)).body.status).toBe('active');

    const report = await call('GET', '/admin/v1/campaigns/report?since=2026-03-01');
    expect(report.status).toBe(200);
    expectShape(CampaignReport, report.body);
    expect(report.body).toEqual({
      since: '2026-03-01',
      campaigns: [
        {
          id,
          advertiser: 'Acme',
          title: 'New title',
          status: 'active',
          impressions: 0,
          agent_reads: 0,
          clicks: 0,
          spend_micros: 0,
          read_rate: 0,
          budget_micros: 10_000_000,
          remaining_micros: 10_000_000,
        },
      ],
    });

    const del = await call('DELETE', `/admin/v1/campaigns/${id}`);
    expect(del.status).toBe(204);
    for (const [method, url] of [
      ['GET', `/admin/v1/campaigns/${id}`],
      ['DELETE', `/admin/v1/campaigns/${id}`],
      ['POST', `/admin/v1/campaigns/${id}/pause`],
    ] as const) {
      const r = await call(method, url);
      expect(r.status).toBe(404);
      expect(r.body.error.message).toContain('no campaign with id');
    }
    expect((await call('PUT', '/admin/v1/campaigns/cmp_nope', campaignFile())).status).toBe(404);
  });

  it('an invalid campaign is 400 with every problem listed, and nothing is stored', async () => {
    const before = (await call('GET', '/admin/v1/campaigns')).body.campaigns.length;
    const r = await call('POST', '/admin/v1/campaigns', {
      ...campaignFile({ bid_micros: '5', countries: ['UK'] }),
      colour: 'red',
      keywords: [],
    });
    expect(r.status).toBe(400);
    const msg = r.body.error.message as string;
    expect(msg).toMatch(/^the campaign is invalid \(4 problems\): 1\) /);
    expect(msg).toContain('unknown field "colour"');
    expect(msg).toContain('keywords must be an array of 1 to 500 phrases');
    expect(msg).toContain('bid_micros must be a whole number of micros');
    expect(msg).toContain('the United Kingdom is GB');
    expect((await call('GET', '/admin/v1/campaigns')).body.campaigns).toHaveLength(before);
  });

  it('refuses malformed JSON, a bad since and unknown report parameters with 400', async () => {
    const bad = await s.app.inject({
      method: 'POST',
      url: '/admin/v1/campaigns',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: '{"advertiser":',
    });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', '/admin/v1/campaigns/report?since=2026-02-30')).body.error.message).toContain(
      'since must be a date YYYY-MM-DD',
    );
    expect((await call('GET', '/admin/v1/campaigns/report?from=2026-01-01')).status).toBe(400);
  });
});
