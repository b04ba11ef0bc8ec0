import { STOP_WORDS } from '../index/stop-words.ts';
import type { CompiledCampaign } from './keyword-index.ts';

export interface Bid {
  campaign: CompiledCampaign;
  /** Share of the query's topic words the campaign's keywords cover, in (0, 1]. */
  relevance: number;
}

/** Query word indexes that carry the topic: not stop words (all words when only stop words). */
export function topicPositions(words: readonly string[]): number[] {
  const topic = words.flatMap((w, i) => (STOP_WORDS.has(w) ? [] : [i]));
  return topic.length > 0 ? topic : words.map((_, i) => i);
}

/** Covered topic words / topic words: "running shoes" covers more of "best running shoes" than "shoes". */
export function relevance(covered: ReadonlySet<number>, topic: readonly number[]): number {
  if (topic.length === 0) return 0;
  return topic.filter((i) => covered.has(i)).length / topic.length;
}

const rank = (b: Bid): number => b.campaign.record.bidMicros * b.relevance;

/**
 * Orders bids by bid × relevance, highest first; ties go to the more relevant ad, then to
 * the older campaign (stable, so an advertiser cannot win a tie by re-creating a campaign).
 * Keeps at most `slots`. The winner pays its own bid per agent read (first-price).
 */
export function runAuction(bids: readonly Bid[], slots: number): Bid[] {
  if (slots <= 0) return [];
  return bids
    .filter((b) => b.relevance > 0)
    .sort(
      (a, b) =>
        rank(b) - rank(a) ||
        b.relevance - a.relevance ||
        a.campaign.record.createdAt.localeCompare(b.campaign.record.createdAt) ||
        a.campaign.record.id.localeCompare(b.campaign.record.id),
    )
    .slice(0, slots);
}
