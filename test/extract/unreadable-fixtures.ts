import { readFileSync } from 'node:fs';
import type { BlockKind } from '../../src/extract/html/block-page.ts';

/**
 * The hand-written pages under fixtures/unreadable/: interstitials shaped like each vendor's
 * (title, markers, scripts, the little text they show), app shells, and real-looking pages
 * that carry the same words or scripts and must still be read.
 */

export type FixtureGroup = 'block' | 'shell' | 'readable';

export const unreadableFixture = (group: FixtureGroup, name: string): string =>
  readFileSync(new URL(`./fixtures/unreadable/${group}/${name}.html`, import.meta.url), 'utf8');

export interface BlockCase {
  name: string;
  kind: BlockKind;
  vendor: string;
  /** The status the vendor usually sends it with (HTTP tests). */
  status: number;
  /** Headers the vendor sends alongside (HTTP tests). */
  headers?: Record<string, string>;
}

export const BLOCK_CASES: BlockCase[] = [
  {
    name: 'cloudflare-managed-challenge',
    kind: 'challenge',
    vendor: 'Cloudflare',
    status: 403,
    headers: { server: 'cloudflare' },
  },
  {
    name: 'cloudflare-legacy-iuam',
    kind: 'challenge',
    vendor: 'Cloudflare',
    status: 503,
    headers: { server: 'cloudflare' },
  },
  { name: 'cloudflare-blocked', kind: 'block', vendor: 'Cloudflare', status: 403, headers: { server: 'cloudflare' } },
  { name: 'akamai-access-denied', kind: 'block', vendor: 'Akamai', status: 403, headers: { server: 'AkamaiGHost' } },
  { name: 'imperva-incapsula', kind: 'block', vendor: 'Imperva', status: 200 },
  { name: 'imperva-pardon-our-interruption', kind: 'challenge', vendor: 'Imperva', status: 405 },
  { name: 'aws-waf-challenge', kind: 'challenge', vendor: 'AWS WAF', status: 202 },
  { name: 'aws-cloudfront-blocked', kind: 'block', vendor: 'AWS WAF', status: 403, headers: { server: 'CloudFront' } },
  {
    name: 'sucuri-access-denied',
    kind: 'block',
    vendor: 'Sucuri',
    status: 403,
    headers: { server: 'Sucuri/Cloudproxy' },
  },
  {
    name: 'datadome-captcha',
    kind: 'captcha',
    vendor: 'DataDome',
    status: 403,
    headers: { 'x-datadome': 'protected' },
  },
  { name: 'perimeterx-press-and-hold', kind: 'captcha', vendor: 'PerimeterX (HUMAN)', status: 403 },
  { name: 'kasada-429', kind: 'challenge', vendor: 'Kasada', status: 429 },
  { name: 'recaptcha-wall', kind: 'captcha', vendor: 'reCAPTCHA', status: 200 },
  { name: 'hcaptcha-wall', kind: 'captcha', vendor: 'hCaptcha', status: 200 },
  { name: 'turnstile-wall', kind: 'captcha', vendor: 'Cloudflare Turnstile', status: 200 },
];

/** App shells and the visible characters of text each holds. */
export const SHELL_CASES: { name: string; textChars: number }[] = [
  { name: 'create-react-app', textChars: 0 },
  { name: 'next-client-rendered', textChars: 0 },
  { name: 'angular-app-root', textChars: 8 },
  { name: 'vue-cli', textChars: 0 },
  // A store's item page: its footer's links are server-rendered around the empty #root.
  { name: 'store-chrome-around-empty-root', textChars: 33 },
];

/** Pages that mention or embed the same things and are read as usual; `expect` is a phrase of their content. */
export const READABLE_CASES: { name: string; expect: string }[] = [
  { name: 'article-about-captchas', expect: 'CAPTCHAs are losing the arms race' },
  { name: 'article-with-recaptcha-comments', expect: 'Fiddle-leaf figs dislike change' },
  { name: 'login-with-recaptcha', expect: 'Sign in' },
  { name: 'next-server-rendered', expect: 'harmonic analysis' },
  { name: 'short-notice-with-vendor-scripts', expect: 'closes early on Friday' },
  { name: 'short-page-with-widget-mount', expect: 'closed stacks must be ordered' },
];
