import { DomainError } from '../../domain/errors.ts';
import { findAppShell, type AppShell } from './app-shell.ts';
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
    `the page renders its content with JavaScript (an app shell with ${shell.textChars} characters of text); Scout fetches static HTML only — look for a server-rendered URL, an API or a feed`,
    { reason: 'app_shell' },
  );
}

/**
 * Called after extraction with what it produced: a page whose markdown is longer than any
 * interstitial has content and is never re-read, so articles pay nothing for the check.
 */
const MAX_CHECKED_MARKDOWN = 2 * MAX_BLOCK_TEXT;

/**
 * Characters of markup read for the signals. Interstitials and app shells are small pages;
 * a 20 MB body of dense markup that extracted to little text would otherwise be scanned
 * whole (about a second on a slow core) for signals its first megabyte already shows.
 */
const MAX_SCANNED_MARKUP = 1_000_000;

export function refuseUnreadablePage(rawHtml: string, markdown: string): void {
  if (markdown.length > MAX_CHECKED_MARKDOWN) return;
  const signals = pageSignals(rawHtml.length > MAX_SCANNED_MARKUP ? rawHtml.slice(0, MAX_SCANNED_MARKUP) : rawHtml);
  const block = findBlockPage(signals);
  if (block !== null) throw blockPageError(block);
  const shell = findAppShell(signals);
  if (shell !== null) throw appShellError(shell);
}
