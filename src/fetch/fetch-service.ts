import type { ExtractInput, ExtractedDocument } from '../extract/extract-document.ts';
import { startDeadline } from './deadline.ts';
import { createHttpFetcher, type HttpFetchOptions } from './http-fetch.ts';
import type { OwnDocsReader } from './own-docs.ts';
import { refusedAtHeaders } from './refused-at-headers.ts';
import { createAddressPolicy } from './address-policy.ts';
import { inSeconds } from '../domain/durations.ts';
import { markdownFacts, type PageFacts } from '../extract/page-facts.ts';
import { rawText } from '../extract/raw-text.ts';
import { truncateMarkdown } from './truncate.ts';
import { unwrapUrl } from './unwrap.ts';
import { createUrlGuard, parseFetchUrl, type Resolver } from './url-guard.ts';

/**
 * POST /v1/fetch: unwrap → guard → fetch (pinned address, one deadline, byte caps) →
 * extract → cap at max_chars. One deadline covers everything from the first lookup to the
 * end of extraction; past it the answer is DomainError('timeout') and the socket is closed.
 */

export interface FetchServiceDeps {
  allowCidrs: string[];
  timeoutMs: number;
  resolver?: Resolver;
  /**
   * Bytes to markdown: in production the worker pool (src/fetch/extract-pool.ts), which
   * stops the page's worker when `signal` aborts; unit tests pass a plain function.
   */
  extract: (input: ExtractInput, signal: AbortSignal) => Promise<ExtractedDocument>;
  /** Hook for Scout's own sponsored click URLs: the landing URL, or undefined when `url` is not a click URL. May throw DomainError('invalid'). */
  resolveClickUrl?: (url: URL) => Promise<{ landingUrl: string; clickPath: 'agent_read' } | undefined>;
  /** Scout's own docs (the starter corpus's `https://scout.invalid/docs/…` URLs), answered without the network. */
  ownDocs?: OwnDocsReader;
  /** Transport limits (byte caps, redirect hops, user agent); defaults suit production. */
  http?: Omit<HttpFetchOptions, 'guard'>;
}

export interface FetchOutcome {
  url: string;
  finalUrl: string;
  title: string;
  content: string;
  chars: number;
  truncated: boolean;
  meta: { unwrapped: boolean; click_path: 'agent_read' | null; content_type: string | null };
  /** The origin's status (2xx: others are errors), when `want` was given; absent for Scout's own docs. */
  status?: number;
  /** The body as text, when `want.raw` asked for it and the page has text (not a PDF). */
  raw?: string;
  /** The page's links, description and language, when `want.facts` asked for them. */
  facts?: PageFacts;
}

/** More than the markdown, for callers that report it (the Firecrawl shape's scrape). */
export interface FetchWants {
  /** The fetched body as text: it is held until the answer is sent, so ask only when it is sent. */
  raw?: boolean;
  /** The page's facts (src/extract/page-facts.ts), read in the extraction worker. */
  facts?: boolean;
}

export interface FetchService {
  /**
   * `signal` lets a caller cancel early (its client gone, its stage out of time); the fetch
   * then ends as a timeout. `caller` names who the fetch is for (an API key's id), so the
   * fetch capacity can share its slots fairly (fetch-capacity.ts); the service ignores it.
   */
  fetch(req: {
    url: string;
    maxChars: number;
    signal?: AbortSignal | undefined;
    caller?: string | undefined;
    want?: FetchWants | undefined;
  }): Promise<FetchOutcome>;
  close(): Promise<void>;
}

interface Target {
  url: URL;
  unwrapped: boolean;
  clickPath: 'agent_read' | null;
}

export function createFetchService(deps: FetchServiceDeps): FetchService {
  const guard = createUrlGuard({ policy: createAddressPolicy(deps.allowCidrs), resolver: deps.resolver });
  const http = createHttpFetcher({ stallTimeoutMs: deps.timeoutMs, refuseType: refusedAtHeaders, ...deps.http, guard });

  async function target(raw: string): Promise<Target> {
    // Wrappers first (the raw string, not url.href: Proofpoint v3 carries its target in a
    // path new URL() normalises), so a click URL inside a wrapper is still recognised.
    const outer = unwrapUrl(raw);
    const url = parseFetchUrl(outer.unwrapped ? outer.url : raw);
    const click = await deps.resolveClickUrl?.(url);
    if (click === undefined) return { url, unwrapped: outer.unwrapped, clickPath: null };
    const inner = unwrapUrl(click.landingUrl);
    return {
      url: parseFetchUrl(inner.unwrapped ? inner.url : click.landingUrl),
      unwrapped: true,
      clickPath: click.clickPath,
    };
  }

  return {
    async fetch({ url, maxChars, signal, want }) {
      const deadline = startDeadline(
        deps.timeoutMs,
        `fetching the page took longer than ${inSeconds(deps.timeoutMs)}; the origin is too slow or the page too large`,
        signal,
      );
      try {
        const { url: start, unwrapped, clickPath } = await deadline.race(target(url));
        const own = deps.ownDocs && (await deadline.race(deps.ownDocs(start)));
        if (own) {
          const { content, truncated } = truncateMarkdown(own.markdown, maxChars);
          const meta = { unwrapped, click_path: clickPath, content_type: 'text/markdown' };
          const out: FetchOutcome = {
            url,
            finalUrl: start.href,
            title: own.title,
            content,
            chars: content.length,
            truncated,
            meta,
          };
          if (want?.raw === true) out.raw = own.markdown;
          if (want?.facts === true) out.facts = markdownFacts(own.markdown, start.href);
          return out;
        }
        const res = await http.fetch(start, deadline.signal);
        // No extraction starts past the deadline (a body that arrived just in time still
        // answers 504), and one running at the deadline is stopped by its signal.
        deadline.check();
        const input = { body: res.body, contentType: res.contentType, url: res.url };
        const doc = await deadline.race(
          deps.extract(want?.facts === true ? { ...input, facts: true } : input, deadline.signal),
        );
        deadline.check();
        const { content, truncated } = truncateMarkdown(doc.markdown, maxChars);
        const out: FetchOutcome = {
          url,
          finalUrl: res.url,
          title: doc.title,
          content,
          chars: content.length,
          // A body cut at a byte cap, or at an extraction bound, is as incomplete as one cut at max_chars.
          truncated: truncated || res.truncated || doc.truncated === true,
          meta: { unwrapped, click_path: clickPath, content_type: doc.contentType },
        };
        if (want !== undefined) out.status = res.status;
        if (want?.raw === true) {
          const raw = rawText(res.body, res.contentType, doc.contentType);
          if (raw !== undefined) out.raw = raw;
        }
        if (doc.facts !== undefined) out.facts = doc.facts;
        return out;
      } finally {
        deadline.clear();
      }
    },
    close: () => http.close(),
  };
}
