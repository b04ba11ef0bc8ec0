import type { MapLink, MapResponse } from '../schemas/map.ts';
import { textTokens } from './result-tokens.ts';

/**
 * map_site's result within the result bound (SCOUT_MCP_MAX_RESULT_TOKENS), its markdown text
 * and its structured content (the /v1/map body) together, as for the other tools. The URLs are
 * a list: what does not fit is cut from its end (the least relevant, with a search), the most
 * that fit being found by bisection, and both the text and the structured content then say so
 * (`complete: false`; `stopped` keeps the map's own reason, else `limit`: a cut at the bound is
 * one). The skipped list goes first when even no URL would fit.
 */

export interface BoundedMap {
  body: MapResponse;
  text: string;
  json: string;
  /** URLs the bound cut off (0 when all fit). */
  cut: number;
}

const STOP_TEXT: Record<NonNullable<MapResponse['stopped']>, string> = {
  limit: 'more URLs than `limit` were found',
  deadline: 'timeout_ms ran out',
  page_budget: 'the most pages one map reads were read',
  sitemap_budget: 'the most sitemaps one map reads were read',
  candidates: 'the most URLs one map holds were found',
  rate_limited: "the key's rate limit ran out",
};

const line = (r: MapLink): string =>
  `- ${r.url}${r.title === null ? '' : ` — ${r.title}`}${r.lastmod === null ? '' : ` (updated ${r.lastmod})`}`;

function render(map: MapResponse, cut: number): { body: MapResponse; text: string; json: string } {
  const body: MapResponse =
    cut === 0
      ? map
      : {
          ...map,
          complete: false,
          stopped: map.stopped ?? 'limit',
          results: map.results.slice(0, map.results.length - cut),
        };
  const n = body.results.length;
  const state = map.stopped === null ? 'complete' : `stopped early: ${STOP_TEXT[map.stopped]}`;
  const blocks = [
    `## Site map of ${map.url}: ${n} URL${n === 1 ? '' : 's'} (${state})`,
    `Read ${map.sitemaps_read} sitemap${map.sitemaps_read === 1 ? '' : 's'} and ${map.pages_read} page${map.pages_read === 1 ? '' : 's'}; ${map.charged} request${map.charged === 1 ? '' : 's'} of the rate limit.`,
  ];
  if (n > 0) blocks.push(body.results.map(line).join('\n'));
  if (cut > 0)
    blocks.push(
      `${cut} more URL${cut === 1 ? '' : 's'} found did not fit in this result: narrow the map (search, include_paths) or lower limit to see them.`,
    );
  if (body.skipped.length > 0)
    blocks.push(`Skipped:\n${body.skipped.map((s) => `- ${s.url}: ${s.reason}`).join('\n')}`);
  const text = blocks.join('\n\n');
  return { body, text, json: JSON.stringify(body) };
}

export function boundMap(map: MapResponse, limit: number): BoundedMap {
  const fits = (cut: number, m = map) => {
    const r = render(m, cut);
    // Counted, not estimated from bytes (result-tokens.ts): URLs run denser in tokens than prose.
    return textTokens(r.text) + textTokens(r.json) <= limit ? r : undefined;
  };
  const all = fits(0);
  if (all !== undefined) return { ...all, cut: 0 };
  const total = map.results.length;
  // Even no URL at all does not fit beside the skipped list: drop that first.
  const m = fits(total) === undefined ? { ...map, skipped: [] } : map;
  let lo = 1;
  let hi = total;
  // The fewest URLs to cut: `hi` always fits (or nothing does), `lo - 1` never does.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid, m) !== undefined) hi = mid;
    else lo = mid + 1;
  }
  return { ...render(m, hi), cut: hi };
}
