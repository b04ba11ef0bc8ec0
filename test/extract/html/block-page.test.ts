import { describe, expect, it } from 'vitest';
import { blockFromHeaders, findBlockPage, MAX_BLOCK_TEXT } from '../../../src/extract/html/block-page.ts';
import { pageSignals } from '../../../src/extract/html/page-signals.ts';
import { BLOCK_CASES, READABLE_CASES, unreadableFixture } from '../unreadable-fixtures.ts';

const detect = (html: string) => findBlockPage(pageSignals(html));

describe('findBlockPage', () => {
  it.each(BLOCK_CASES)('recognises $name as a $kind by $vendor', ({ name, kind, vendor }) => {
    expect(detect(unreadableFixture('block', name))).toEqual({ kind, vendor });
  });

  it('covers at least eight vendors', () => {
    expect(new Set(BLOCK_CASES.map((c) => c.vendor)).size).toBeGreaterThanOrEqual(8);
  });

  it.each(READABLE_CASES)(
    'leaves $name alone (mentions, comment-form CAPTCHAs, vendor scripts on real pages)',
    ({ name }) => {
      expect(detect(unreadableFixture('readable', name))).toBeNull();
    },
  );

  it("does not take Cloudflare's origin-error page (522) or a bare nginx 403 for a block", () => {
    expect(detect(unreadableFixture('readable', 'cloudflare-522'))).toBeNull();
    expect(detect(unreadableFixture('readable', 'plain-403'))).toBeNull();
  });

  it("reads Cloudflare's plain-text answer to non-browsers (error code 1020)", () => {
    expect(detect('error code: 1020')).toEqual({ kind: 'block', vendor: 'Cloudflare' });
    // 1016 is an origin DNS error, not a block.
    expect(detect('error code: 1016')).toBeNull();
  });

  it.each([
    [
      'Akamai bot manager',
      '<title>Example</title><body><div id="sec-if-cpt-container"><p>Powered and protected by Akamai</p></div><script src="/_sec/cp_challenge/sec-cpt-4-1.js"></script></body>',
      'challenge',
      'Akamai',
    ],
    [
      'AWS WAF CAPTCHA',
      '<title></title><script src="https://a1.b2.us-east-1.captcha.awswaf.com/a1/b2/c3/captcha.js"></script><body><div id="captcha-container"></div></body>',
      'captcha',
      'AWS WAF',
    ],
    [
      'DDoS-Guard',
      '<title>DDoS-Guard</title><body><p>Checking your browser before accessing example.org</p><script src="/.well-known/ddos-guard/check?context=free_splash"></script></body>',
      'challenge',
      'DDoS-Guard',
    ],
    [
      'Amazon',
      '<title>Amazon.com</title><body><h4>Enter the characters you see below</h4><p>Sorry, we just need to make sure you\'re not a robot.</p><form method="get" action="/errors/validateCaptcha"><input name="field-keywords"></form></body>',
      'captcha',
      'Amazon',
    ],
  ])('recognises %s', (_name, html, kind, vendor) => {
    expect(detect(html)).toEqual({ kind, vendor });
  });

  it('ignores vendor markers on a page with more text than an interstitial', () => {
    const challenge = unreadableFixture('block', 'cloudflare-managed-challenge');
    const long = challenge.replace(
      '<body class="no-js">',
      `<body class="no-js"><p>${'Long article text. '.repeat(MAX_BLOCK_TEXT / 10)}</p>`,
    );
    expect(detect(long)).toBeNull();
  });

  it('needs wording and a widget, and no other form, for a generic CAPTCHA wall', () => {
    const widget =
      '<script src="https://www.google.com/recaptcha/api.js"></script><div class="g-recaptcha" data-sitekey="k"></div>';
    expect(detect(`<title>Security check</title><body><p>Please verify you are human.</p>${widget}</body>`)).toEqual({
      kind: 'captcha',
      vendor: 'reCAPTCHA',
    });
    expect(detect(`<title>Contact</title><body><p>Write to us.</p>${widget}</body>`)).toBeNull();
    expect(detect(`<title>Security check</title><body><p>Please verify you are human.</p></body>`)).toBeNull();
    expect(
      detect(
        `<title>Security check</title><body><p>Please verify you are human.</p><textarea name="m"></textarea>${widget}</body>`,
      ),
    ).toBeNull();
  });

  it('does not take a short page titled "Just a moment" on a Cloudflare site for a challenge when it has text', () => {
    const text = 'A short post about waiting for a kettle to boil, and what to do meanwhile. '.repeat(10);
    expect(
      detect(
        `<title>Just a moment...</title><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script><body><p>${text}</p></body>`,
      ),
    ).toBeNull();
  });
});

describe('blockFromHeaders', () => {
  it('names a Cloudflare challenge from cf-mitigated and an AWS WAF action from x-amzn-waf-action', () => {
    expect(blockFromHeaders({ 'cf-mitigated': 'challenge' })).toEqual({ kind: 'challenge', vendor: 'Cloudflare' });
    expect(blockFromHeaders({ 'x-amzn-waf-action': 'captcha' })).toEqual({ kind: 'captcha', vendor: 'AWS WAF' });
    expect(blockFromHeaders({ 'x-amzn-waf-action': 'challenge' })).toEqual({ kind: 'challenge', vendor: 'AWS WAF' });
  });

  it('ignores headers every response of a protected site carries', () => {
    expect(
      blockFromHeaders({ server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6a7b-AMS', 'x-datadome': 'protected' }),
    ).toBeNull();
  });
});
