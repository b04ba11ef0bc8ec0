import type { PageSignals } from './page-signals.ts';

/**
 * Recognises a bot challenge, a CAPTCHA wall or a WAF block page that a site served in
 * place of the page asked for, whatever its status (Cloudflare challenges come as 403 or
 * 503, Incapsula's as 200, AWS WAF's as 202). Precision first: a false match hides a real
 * page from the caller, so every rule needs a vendor's own marker (a script variable, an
 * element id, a resource path that only its interstitial carries) or its exact wording,
 * and the page must be short. Markers that vendors also inject into ordinary pages
 * (Cloudflare's `/cdn-cgi/challenge-platform/scripts/jsd/` beacon, Incapsula's
 * `_Incapsula_Resource?SWJIYLWA=` script, PerimeterX's `_pxAppId` sensor, a reCAPTCHA in
 * a comment form) are never enough on their own.
 */

export type BlockKind = 'challenge' | 'captcha' | 'block';

export interface BlockPage {
  kind: BlockKind;
  /** Who served it: "Cloudflare", "Akamai", "reCAPTCHA", … */
  vendor: string;
}

/** Interstitials carry a few sentences; a page with more text than this is the page. */
export const MAX_BLOCK_TEXT = 2000;
/** A generic CAPTCHA wall (no vendor marker, only a widget and wording) must be shorter still. */
const MAX_WALL_TEXT = 1000;

type Headers = Record<string, string | string[] | undefined>;

interface Rule {
  vendor: string;
  /** The kind when the page matches, or null when it does not. */
  match(p: PageSignals): BlockKind | null;
}

const has = (re: RegExp, s: string): boolean => re.test(s);
const when = (ok: boolean, kind: BlockKind): BlockKind | null => (ok ? kind : null);

const RULES: Rule[] = [
  {
    vendor: 'Cloudflare',
    match: (p) => {
      // The challenge page's own options object, its orchestrate script (not the jsd beacon
      // every proxied page gets), its token parameters and element ids.
      const challenge =
        has(
          /_cf_chl_opt\b|\/cdn-cgi\/challenge-platform\/h\/[a-z]\/orchestrate\/|__cf_chl_|\bcf-chl-|\bcf_chl_|id=["']?cf-(?:challenge-running|please-wait)\b|cf-browser-verification|cf_captcha_kind|cf-captcha-container/i,
          p.markup,
        ) ||
        // Its title alone on a near-empty page: a short post titled "Just a moment" has more text.
        (/^just a moment(?:\.\.\.|…)?$/i.test(p.title) &&
          p.text.length < 600 &&
          has(/\/cdn-cgi\/|cloudflare/i, p.markup));
      if (challenge) return 'challenge';
      // What it answers clients that are not browsers: the whole body is the error code.
      if (/^error code: 10(?:0[5-9]|1[0-2]|15|20)$/i.test(p.text)) return 'block';
      // The "Attention Required!" / error 1020 block page; its 52x origin-error pages share
      // the cf-wrapper layout and are not blocks.
      const layout = has(/id=["']?cf-(?:wrapper|error-details)\b|class=["']?cf-error-/i, p.markup);
      return when(
        layout &&
          has(
            /attention required|you have been blocked|access denied|being rate limited|error 10(?:0[5-9]|1[0-2]|15|20)\b/i,
            `${p.title} ${p.text}`,
          ),
        'block',
      );
    },
  },
  {
    vendor: 'Akamai',
    match: (p) => {
      if (has(/\/_sec\/cp_challenge\/|\bsec-if-cpt-container\b|\bsec-cpt-if\b/i, p.markup)) return 'challenge';
      const denied = /^access denied$/i.test(p.title) && has(/you don.t have permission to access/i, p.text);
      return when(
        denied &&
          (has(/\breference #\s?[0-9]+\.[0-9a-f]+\.[0-9]+/i, p.text) || has(/errors\.edgesuite\.net/i, p.markup)),
        'block',
      );
    },
  },
  {
    vendor: 'Imperva',
    match: (p) => {
      // The block iframe's resource URL carries the incident; the script injected into
      // ordinary pages carries other parameters.
      const incapsula =
        has(/incapsula incident id/i, p.text) ||
        has(/_Incapsula_Resource\?[^"'\s>]{0,400}\b(?:CWUDNSAI|incident_id)=/i, p.markup);
      if (incapsula) return has(/request unsuccessful/i, p.text) ? 'block' : 'challenge';
      // Imperva Advanced Bot Protection (formerly Distil Networks).
      return when(
        /^pardon our interruption/i.test(p.title) &&
          has(/made us think you were a bot|something about your browser/i, p.text),
        'challenge',
      );
    },
  },
  {
    vendor: 'AWS WAF',
    match: (p) => {
      const sdk = has(/\.awswaf\.com\//i, p.markup);
      if (sdk && has(/captcha\.js|id=["']?captcha-container\b/i, p.markup)) return 'captcha';
      if (has(/window\.gokuProps\s?=/, p.markup) || (sdk && has(/id=["']?challenge-container\b/i, p.markup)))
        return 'challenge';
      // A WAF block rendered by CloudFront.
      return when(/the request could not be satisfied/i.test(p.title) && has(/\brequest blocked\b/i, p.text), 'block');
    },
  },
  {
    vendor: 'Sucuri',
    match: (p) => {
      if (has(/\bsucuri_cloudproxy_js\b/, p.markup)) return 'challenge';
      return when(
        has(
          /access denied - sucuri website firewall|sucuri website firewall - access denied/i,
          `${p.title} ${p.text}`,
        ) || has(/sucuri-firewall-block\.css/i, p.markup),
        'block',
      );
    },
  },
  {
    vendor: 'DataDome',
    match: (p) => {
      // The interstitial's inline `var dd={…}` names captcha-delivery.com; ordinary pages load js.datadome.co.
      if (!has(/captcha-delivery\.com/i, p.markup) || !has(/\bdd\s?=\s?\{/, p.markup)) return null;
      return has(/['"]rt['"]\s?:\s?['"]c['"]/, p.markup) ? 'captcha' : 'challenge';
    },
  },
  {
    vendor: 'PerimeterX (HUMAN)',
    match: (p) => {
      const sensor = has(/_pxAppId|perimeterx|px-cdn\.net|px-cloud\.net/i, p.markup);
      const widget = has(/id=["']?px-captcha\b/i, p.markup);
      const wording = has(/press (?:&|and) hold/i, p.text) || /^access to this page has been denied/i.test(p.title);
      return when(widget ? sensor || wording : sensor && wording, 'captcha');
    },
  },
  {
    vendor: 'Kasada',
    // Its 429 interstitial is an empty body running ips.js; ordinary pages load p.js.
    match: (p) => when(has(/\bKPSDK\b/, p.markup) && has(/\/ips\.js\b/, p.markup) && p.text.length < 200, 'challenge'),
  },
  {
    vendor: 'DDoS-Guard',
    match: (p) =>
      when(
        /^ddos-guard$/i.test(p.title) ||
          has(/check\.ddos-guard\.net|ddos-guard\.net\/\.well-known\/ddos-guard\/js-challenge/i, p.markup),
        'challenge',
      ),
  },
  {
    vendor: 'Amazon',
    match: (p) =>
      when(
        has(/action=["']?\/errors\/validateCaptcha/i, p.markup) && has(/not a robot|characters you see/i, p.text),
        'captcha',
      ),
  },
];

/** Wording of a page that is there to prove the visitor human, not to say anything. */
const WALL_WORDING =
  /verify (?:that )?you(?: a|['’])re (?:a )?human|verify you are not a (?:ro)?bot|(?:you are|you['’]re|i['’]m|i am) not a robot|are you (?:a )?(?:robot|human)|robot or human|human verification|(?:security|browser) check|prove (?:that )?you(?: a|['’])re (?:a )?human|confirm (?:that )?you(?: a|['’])re (?:a )?human|complete the (?:captcha|challenge)|solve the captcha|unusual traffic|automated (?:queries|requests|access|traffic)/i;

const WIDGETS: [RegExp, string][] = [
  [
    /class=["'][^"'>]{0,200}\bg-recaptcha\b|google\.com\/recaptcha\/(?:api|enterprise)\.js|recaptcha\.net\/recaptcha\//i,
    'reCAPTCHA',
  ],
  [/class=["'][^"'>]{0,200}\bh-captcha\b|hcaptcha\.com\/1\/api\.js/i, 'hCaptcha'],
  [/class=["'][^"'>]{0,200}\bcf-turnstile\b|challenges\.cloudflare\.com\/turnstile\//i, 'Cloudflare Turnstile'],
];

/** Forms that collect something else (a comment, a login, a message) are not walls. */
const OTHER_FORM = /<textarea\b|type=["']?(?:password|email)\b/i;

/** A CAPTCHA widget that is the page's main content: short page, human-check wording, no other form. */
function captchaWall(p: PageSignals): BlockPage | null {
  if (p.text.length > MAX_WALL_TEXT || OTHER_FORM.test(p.markup)) return null;
  if (!WALL_WORDING.test(`${p.title} ${p.text}`)) return null;
  const widget = WIDGETS.find(([re]) => re.test(p.markup));
  return widget === undefined ? null : { kind: 'captcha', vendor: widget[1] };
}

export function findBlockPage(p: PageSignals): BlockPage | null {
  if (p.text.length > MAX_BLOCK_TEXT) return null;
  for (const rule of RULES) {
    const kind = rule.match(p);
    if (kind !== null) return { kind, vendor: rule.vendor };
  }
  return captchaWall(p);
}

const header = (headers: Headers, name: string): string => {
  const v = headers[name];
  return (Array.isArray(v) ? v.join(',') : (v ?? '')).toLowerCase();
};

/** Headers that name a challenge on their own, before any of the body is read. */
export function blockFromHeaders(headers: Headers): BlockPage | null {
  // Cloudflare sets it on challenge answers only (its docs: "cf-mitigated: challenge").
  if (header(headers, 'cf-mitigated').includes('challenge')) return { kind: 'challenge', vendor: 'Cloudflare' };
  const aws = header(headers, 'x-amzn-waf-action');
  if (aws.includes('captcha')) return { kind: 'captcha', vendor: 'AWS WAF' };
  if (aws.includes('challenge')) return { kind: 'challenge', vendor: 'AWS WAF' };
  return null;
}
