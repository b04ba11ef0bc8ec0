import { describe, expect, it } from 'vitest';
import { describeProblems, validateCampaignFile } from '../../src/sponsored/campaign-validation.ts';
import { campaignFile } from './sponsored-fixture.ts';

const problems = (value: unknown): string[] => {
  const v = validateCampaignFile(value);
  if (v.ok) throw new Error('expected the campaign to be invalid');
  return v.problems;
};

describe('campaign file validation', () => {
  it('accepts a minimal file and applies the defaults', () => {
    const v = validateCampaignFile(campaignFile({ countries: ['us', 'GB', 'us'] }));
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.definition).toMatchObject({
      status: 'active',
      disclosure: 'Sponsored · Acme',
      countries: ['US', 'GB'],
      negativeKeywords: [],
      dailyCapMicros: null,
      startDate: null,
      endDate: null,
      incentive: null,
    });
  });

  it('accepts every optional field', () => {
    const v = validateCampaignFile(
      campaignFile({
        negative_keywords: ['free'],
        countries: ['DE'],
        daily_cap_micros: 1_000_000,
        start_date: '2026-01-01',
        end_date: '2026-12-31',
        status: 'paused',
        disclosure: 'Ad · Acme GmbH',
        incentive: { kind: 'code', code: 'SCOUT10', benefit: '10% off the first order' },
      }),
    );
    expect(v).toMatchObject({
      ok: true,
      definition: { status: 'paused', disclosure: 'Ad · Acme GmbH', incentive: { kind: 'code', code: 'SCOUT10' } },
    });
  });

  it('lists every problem of a bad file, not just the first', () => {
    const list = problems({
      advertiser: '',
      title: 'x'.repeat(201),
      url: 'ftp://files.example/x',
      keywords: ['the', '!!!', 5],
      bid_micros: 2.5,
      budget_micros: -1,
      countries: ['UK', 'zz', 'USA'],
      start_date: '2026-02-30',
      status: 'running',
      incentive: { kind: 'code', benefit: 'money', extra: 1 },
      color: 'red',
    });
    const text = list.join('\n');
    expect(text).toContain('advertiser must be a string of 1 to 100 characters');
    expect(text).toContain('title must be a string of 1 to 200 characters');
    expect(text).toContain('content is required');
    expect(text).toContain('keywords[2] must be a phrase');
    expect(text).toContain('bid_micros must be a whole number of micros');
    expect(text).toContain('budget_micros must be a whole number of micros');
    expect(text).toContain('countries[2] must be an ISO 3166-1 alpha-2 country code');
    expect(text).toContain('status must be one of active, paused');
    expect(text).toContain('unknown field "color"');
    expect(text).toContain('unknown field "incentive.extra"; allowed fields of incentive are kind, code, benefit');
    expect(text).toContain('url must use http or https');
    expect(text).toContain('start_date 2026-02-30 is not a calendar day');
    expect(text).toContain('keywords[0] "the" has only stop words');
    expect(text).toContain('keywords[1] "!!!" has no words');
    expect(text).toContain('countries[0] "UK" is not an ISO 3166-1 alpha-2 country code (the United Kingdom is GB)');
    expect(text).toContain('countries[1] "zz" is not an ISO 3166-1 alpha-2 country code');
    expect(text).toContain('incentive.code is required when incentive.kind is code');
    expect(list.length).toBeGreaterThanOrEqual(17);
    // One message per field: a missing field is not also reported as "expected string".
    expect(list.filter((p) => p.startsWith('content'))).toHaveLength(1);
  });

  it('checks money and dates against each other', () => {
    const text = problems(
      campaignFile({
        bid_micros: 500,
        budget_micros: 100,
        daily_cap_micros: 50,
        start_date: '2026-05-02',
        end_date: '2026-05-01',
      }),
    ).join('\n');
    expect(text).toContain('bid_micros must not exceed budget_micros');
    expect(text).toContain('daily_cap_micros must be at least bid_micros');
    expect(text).toContain('end_date must not be before start_date');
  });

  it('refuses blank text and a url with credentials', () => {
    const text = problems(campaignFile({ title: '   ', disclosure: ' ', url: 'https://user:pw@shop.example/' })).join(
      '\n',
    );
    expect(text).toContain('title must not be blank');
    expect(text).toContain('disclosure must not be blank');
    expect(text).toContain('url must not carry a user name or password');
  });

  it('refuses anything but one JSON object', () => {
    for (const v of [null, [], 'campaign', 42]) expect(problems(v)[0]).toContain('a campaign must be one JSON object');
  });

  it('numbers the problems in one caller-facing message', () => {
    expect(describeProblems(['a is wrong', 'b is wrong'])).toBe(
      'the campaign is invalid (2 problems): 1) a is wrong; 2) b is wrong',
    );
  });
});
