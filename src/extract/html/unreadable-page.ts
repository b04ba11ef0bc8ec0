import { DomainError } from '../../domain/errors.ts';
import { findAppShell, mayBeShellWithChrome, type AppShell } from './app-shell.ts';
import { findBlockPage, MAX_BLOCK_TEXT, type BlockKind, type BlockPage } from './block-page.ts';
import { pageSignals } from './page-signals.ts';

/**
 * The honest answer for an HTML page that is not the page: a bot challenge, CAPTCHA wall or
 * WAF block page, or an app shell whose text needs JavaScript. Both are 502 ("upstream
 * fetch failed"): the origin did not give Scout the content, and a 200 carrying the
 * interstitial's few words would be taken for the article. The messages name the cause
 * and what the caller can do instead.
 */

const WHAT: Record<BlockKind, string> = {
  challenge: 'a bot challenge',
  captcha: 'a CAPTCHA',
  block: 'a block page from its firewall',
};

export function blockPageError(found: BlockPage, status?: number): DomainError {
  const where = status === undefined ? found.vendor : `${found.vendor}, HTTP ${status}`;
  return new DomainError(
    'upstream',
    `the site answered with ${WHAT[found.kind]} (${where}) instead of the page; Scout cannot pass it — try another source`,
    {
      reason: 'blocked',
    },
  );
}

export function appShellError(shell: AppShell): DomainError {
  return new DomainError(
    'upstream',
    `the page renders its content with JavaScript (an app shell with ${shell.textChars} characters of text outside its header, navigation and footer); Scout fetches static HTML only — look for a server-rendered URL, an API or a feed`,
    { reason: 'app_shell' },
  );
}

/**
 * Called after extraction with what it produced: a page whose markdown is longer than any
 * interstitial has content and is never re-read for a block page, so articles pay little for
 * the check; it is re-read for an app shell only when its markup has an app's empty mount
 * point (a shell's server-rendered header and footer can make long markdown of their own).
 */
const MAX_CHECKED_MARKDOWN = 2 * MAX_BLOCK_TEXT;

/**
 * Characters of markup read for the signals. Interstitials and app shells are small pages;
 * a 20 MB body of dense markup that extracted to little text would otherwise be scanned
 * whole (about a second on a slow core) for signals its first megabyte already shows.
 */
const MAX_SCANNED_MARKUP = 1_000_000;

export function refuseUnreadablePage(rawHtml: string, markdown: string): void {
  const scanned = rawHtml.length > MAX_SCANNED_MARKUP ? rawHtml.slice(0, MAX_SCANNED_MARKUP) : rawHtml;
  const short = markdown.length <= MAX_CHECKED_MARKDOWN;
  if (!short && !mayBeShellWithChrome(scanned)) return;
  const signals = pageSignals(scanned);
  const block = short ? findBlockPage(signals) : null;
  if (block !== null) throw blockPageError(block);
  const shell = findAppShell(signals);
  if (shell !== null) throw appShellError(shell);
}
