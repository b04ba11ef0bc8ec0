import { STOP_WORDS } from '../content/stop-words.ts';
import type { CompiledCampaign } from './keyword-index.ts';

export interface Bid {
  campaign: CompiledCampaign;
  /** Share of the query's topic words the campaign's keywords cover, in (0, 1]. */
  relevance: number;
}

/** Query word indexes that carry the topic: not stop words (all words when only stop words). */
export function topicPositions(words: readonly string[]): number[] {
  // Loops, not flatMap: this runs on every search, and flatMap made an array per word.
  const topic: number[] = [];
  for (const [i, word] of words.entries()) if (!STOP_WORDS.has(word)) topic.push(i);
  if (topic.length === 0) for (let i = 0; i < words.length; i++) topic.push(i);
  return topic;
}

/** Covered topic words / topic words: "running shoes" covers more of "best running shoes" than "shoes". */
export function relevance(covered: ReadonlySet<number>, topic: readonly number[]): number {
  if (topic.length === 0) return 0;
  let n = 0;
  for (const i of topic) if (covered.has(i)) n++;
  return n / topic.length;
}

const rank = (b: Bid): number => b.campaign.record.bidMicros * b.relevance;

/**
 * Orders bids by bid × relevance, highest first; ties go to the more relevant ad, then to
 * the older campaign (stable, so an advertiser cannot win a tie by re-creating a campaign).
 * Keeps at most `slots`. The winner pays its own bid per agent read (first-price).
 */
export function runAuction(bids: readonly Bid[], slots: number): Bid[] {
  if (slots <= 0) return [];
  // The best `slots` by insertion into a short sorted list: a search has tens of bids and
  // two slots, so sorting them all was most of the auction's cost. Same order as a full
  // sort: the comparison is total (campaign ids are unique).
  const best: Bid[] = [];
  for (const b of bids) {
    if (b.relevance <= 0) continue;
    // The worst kept, once `slots` are kept.
    const worst = best[slots - 1];
    if (worst !== undefined && compareBids(b, worst) >= 0) continue;
    let i = worst !== undefined ? slots - 1 : best.length;
    // Moves down the kept bids that rank after b (none above the first).
    for (let above = best[i - 1]; above !== undefined && compareBids(b, above) < 0; above = best[i - 1]) {
      best[i] = above;
      i--;
    }
    best[i] = b;
  }
  return best;
}

/** Negative when `a` ranks before `b`. */
function compareBids(a: Bid, b: Bid): number {
  return (
    rank(b) - rank(a) ||
    b.relevance - a.relevance ||
    a.campaign.record.createdAt.localeCompare(b.campaign.record.createdAt) ||
    a.campaign.record.id.localeCompare(b.campaign.record.id)
  );
}
