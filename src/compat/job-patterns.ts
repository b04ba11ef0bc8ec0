import type { JobPatterns } from '../crawl/crawl-job-data.ts';
import { siteFilter } from './tavily-site-fields.ts';

/**
 * A crawl job's compat path filters (src/crawl/crawl-job-data.ts JobPatterns) as one URL
 * filter, or undefined when it has none. Rebuilt by every run of the job, whichever replica
 * runs it: the job keeps the patterns as text, never a compiled filter.
 */
export function jobPatternsFilter(p: JobPatterns): ((url: URL) => boolean) | undefined {
  // Firecrawl's includePaths and excludePaths are regexes on the path, as Tavily's select_paths.
  const { filter } = siteFilter({ select_paths: p.select_paths, exclude_paths: p.exclude_paths });
  const prefix = p.path_prefix;
  if (prefix === undefined) return filter;
  // Firecrawl's own test: the path starts with the start URL's path, as text.
  return (u) => u.pathname.startsWith(prefix) && (filter === undefined || filter(u));
}
