import { describe, expect, it } from 'vitest';
import { unwrapOnce, unwrapUrl } from '../../src/fetch/unwrap.ts';

const target = 'https://example.com/article?id=42&lang=en';
const enc = encodeURIComponent(target);
const b64url = Buffer.from(target).toString('base64url');
// Proofpoint v2: percent-encoding with "-" for "%" and "_" for "/".
const ppV2 = enc.replace(/%/g, '-').replace(/\//g, '_');

describe('unwrapUrl', () => {
  it.each([
    ['Google q=', `https://www.google.com/url?sa=t&rct=j&q=${enc}&source=web`],
    ['Google url=', `https://www.google.com/url?sa=t&url=${enc}&ved=2ah`],
    ['Google country domain', `https://www.google.co.uk/url?q=${enc}`],
    ['Bing', `https://www.bing.com/ck/a?!&&p=abc123&ptn=3&ver=2&hsh=3&u=a1${b64url}&ntb=1`],
    ['DuckDuckGo', `https://duckduckgo.com/l/?uddg=${enc}&rut=abc`],
    ['Facebook', `https://l.facebook.com/l.php?u=${enc}&h=AT0abc`],
    ['Facebook mobile', `https://lm.facebook.com/l.php?u=${enc}`],
    ['LinkedIn', `https://www.linkedin.com/safety/go?url=${enc}&trk=flagship-messaging-web`],
    ['Outlook SafeLinks', `https://nam12.safelinks.protection.outlook.com/?url=${enc}&data=05%7C01&sdata=x&reserved=0`],
    ['Proofpoint v1', `https://urldefense.proofpoint.com/v1/url?u=${enc}&k=abc`],
    ['Proofpoint v2', `https://urldefense.proofpoint.com/v2/url?u=${ppV2}&d=DwMFaQ&c=abc&r=def&m=ghi&s=jkl&e=`],
  ])('unwraps %s', (_name, wrapped) => {
    expect(unwrapUrl(wrapped)).toEqual({ url: target, unwrapped: true });
  });

  it('unwraps Proofpoint v3 with single replacements (published example)', () => {
    const wrapped =
      'https://urldefense.com/v3/__https://google.com:443/search?q=a*test&gs=ps__;Kw!-612Flbf0JvQ3kNJkRi5Jg!Ue6tQudNKaShHg93trcdjqDP8se2ySE65jyCIe2K1D_uNjZ1Lnf6YLQERujngZv9UWf66ujQIQ$';
    expect(unwrapUrl(wrapped)).toEqual({ url: 'https://google.com:443/search?q=a+test&gs=ps', unwrapped: true });
  });

  it('unwraps Proofpoint v3 with runs ("**" + length code)', () => {
    // "*" → "+", then "**A" → a run of 2: "é" and "ü" (code points, not bytes).
    const replaced = Buffer.from('+éü').toString('base64url');
    const wrapped = `https://urldefense.com/v3/__https://example.com/q?a*b&c=**A__;${replaced}!!abc!def$`;
    expect(unwrapUrl(wrapped).url).toBe('https://example.com/q?a+b&c=éü');
  });

  it('unwraps nested wrappers (SafeLinks around Google around DuckDuckGo)', () => {
    const ddg = `https://duckduckgo.com/l/?uddg=${enc}`;
    const google = `https://www.google.com/url?q=${encodeURIComponent(ddg)}`;
    const safe = `https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(google)}&data=x`;
    expect(unwrapUrl(safe)).toEqual({ url: target, unwrapped: true });
  });

  it.each([
    ['an ordinary URL', 'https://example.com/page?q=https%3A%2F%2Fother.com'],
    ['a Google search page', `https://www.google.com/search?q=${enc}`],
    ['a look-alike host', `https://www.notgoogle.com/url?q=${enc}`],
    ['a wrapper with a non-http target', `https://www.google.com/url?q=${encodeURIComponent('javascript:alert(1)')}`],
    ['a wrapper without a target', 'https://l.facebook.com/l.php?h=abc'],
    ['a Bing link without the a1 prefix', `https://www.bing.com/ck/a?u=${b64url}`],
    ['SafeLinks on a look-alike host', `https://safelinks.protection.outlook.com.evil.test/?url=${enc}`],
  ])('leaves %s alone', (_name, raw) => {
    expect(unwrapUrl(raw)).toEqual({ url: raw, unwrapped: false });
  });

  it('unwrapOnce returns null for non-URLs', () => {
    expect(unwrapOnce('not a url')).toBeNull();
  });
});

describe('hostile inputs finish', () => {
  it('a very long Proofpoint v3 look-alike without its terminators', { timeout: 10_000 }, () => {
    const raw = `https://urldefense.com${'/v3/__x'.repeat(40_000)}`;
    expect(unwrapUrl(raw).unwrapped).toBe(false);
  });
});
