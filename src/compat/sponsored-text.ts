import type { Result } from '../schemas/search.ts';

/**
 * The title and text of a sponsored entry in a shape that has no field to label it (SearXNG,
 * and Tavily and Firecrawl after it): its clients, and the model reading their output, see
 * only title and content, so both say it is an ad and who pays, before anything else. The
 * offer, when there is one, is part of what the advertiser pays to show.
 */
export function sponsoredText(r: Result, advertiser: string): { title: string; content: string } {
  const offer = r.incentive
    ? ` Offer: ${r.incentive.benefit.replace(/[.\s]+$/, '')}${r.incentive.code === undefined ? '' : ` (code ${r.incentive.code})`}.`
    : '';
  return {
    title: `Sponsored: ${r.title}`,
    content: `Sponsored by ${advertiser} (an ad, not a search result). ${r.content}${offer}`,
  };
}
