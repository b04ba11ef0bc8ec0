import { normalizeDate } from '../../domain/date-normalize.ts';
import { SNIPPET_MAX_CHARS, tidySnippet } from '../../index/snippet.ts';
import type { ProviderResult } from '../../search/search-types.ts';
import { asArray, asRecord, malformed, resultList, text } from '../adapter-kit.ts';
import { OPENSEARCH } from './cluster-client.ts';

/**
 * A `_search` answer → results. The answer must be the documented shape (`hits.hits` a list);
 * a hit without an http(s) `_source.url` is skipped (another tool may write to the index, and
 * these URLs are passed on as they are: the provider declares them unique). The snippet is the highlight fragment (sent
 * without tags, any `<em>` a cluster added anyway is removed), else the opening of the
 * content when the hit carries it, flattened and cut like the local index's snippets.
 */
export function parseSearchResponse(body: unknown, now: Date, withText: boolean): ProviderResult[] {
  const hits = asRecord(asRecord(body)?.hits);
  if (!hits) throw malformed(OPENSEARCH, 'no hits object');
  return resultList(OPENSEARCH, hits.hits, 'hits.hits', (h) => toResult(h, now, withText));
}

function toResult(entry: unknown, now: Date, withText: boolean): ProviderResult | undefined {
  const hit = asRecord(entry);
  const source = asRecord(hit?._source);
  const url = text(source?.url);
  if (!hit || !source || !url || !/^https?:\/\//i.test(url)) return undefined;
  const content = typeof source.content === 'string' ? source.content : undefined;
  const fragments = asArray(asRecord(hit.highlight)?.content)?.filter((x): x is string => typeof x === 'string');
  const snippet =
    fragments && fragments.length > 0
      ? tidySnippet(fragments.join(' … ').replace(/<\/?em>/g, ''), SNIPPET_MAX_CHARS)
      : content !== undefined
        ? tidySnippet(content.slice(0, SNIPPET_MAX_CHARS * 2), SNIPPET_MAX_CHARS)
        : '';
  const out: ProviderResult = { title: typeof source.title === 'string' ? source.title : '', url, content: snippet };
  const published = normalizeDate(source.published_date, now);
  if (published !== undefined) out.publishedDate = published;
  // `_score` is null when a search sorts by something else; Scout never asks for that.
  if (typeof hit._score === 'number') out.score = hit._score;
  if (withText && content !== undefined) out.rawContent = content;
  return out;
}
