import { keepPassages, pageWindow } from '../content/page-window.ts';
import type { CrawlPage } from '../schemas/crawl.ts';
import type { WalkedPage } from '../site/site-fetch.ts';

/**
 * One page a crawl read, as its answer returns it: its window (or, with `query`, its
 * passages) cut as POST /v1/extract cuts a page (src/content/page-window.ts), within what is
 * left of the answer's characters (`charsLeft`, above 0): a window is cut to it, and passages
 * beyond it go, the least relevant first.
 */
export function crawlPage(
  url: string,
  depth: number,
  page: WalkedPage,
  o: { maxChars: number; query?: string | undefined; maxPassages: number; charsLeft: number },
): CrawlPage {
  const source = {
    content: page.content,
    final_url: page.finalUrl,
    title: page.title,
    truncated: page.truncated,
    meta: page.meta,
  };
  const w = pageWindow(url, source, {
    startIndex: 0,
    maxChars: o.query === undefined ? Math.min(o.maxChars, o.charsLeft) : o.maxChars,
    query: o.query,
    maxPassages: o.maxPassages,
  });
  let entry = w.entry;
  for (let keep = o.maxPassages - 1; entry.content.length > o.charsLeft && keep >= 0; keep -= 1) {
    entry = keepPassages(w, keep);
  }
  return {
    url,
    final_url: entry.final_url,
    title: entry.title,
    depth,
    content: entry.content,
    ...(entry.passages === undefined ? {} : { passages: entry.passages }),
    chars: entry.chars,
    total_chars: entry.total_chars,
    next_index: entry.next_index,
    truncated: entry.truncated,
    meta: entry.meta,
  };
}
