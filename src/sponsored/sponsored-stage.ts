import type { RequestContext, SponsoredPick, SponsoredStage } from '../search/search-service.ts';
import type { SearchQuery } from '../search/search-types.ts';
import type { Result } from '../schemas/search.ts';
import { relevance, runAuction, topicPositions, type Bid } from './auction.ts';
import type { SnapshotSource } from './campaign-snapshot.ts';
import { NO_SPEND, whyIneligible, type AdRequest } from './eligibility.ts';
import type { EventQueue } from './event-queue.ts';
import type { CompiledCampaign } from './keyword-index.ts';
import { newRecId, recIdKeyOrDefault } from './rec-id.ts';
import { tokenize, wordForms } from './text-match.ts';

export interface SponsoredStageOptions {
  snapshots: SnapshotSource;
  queue: EventQueue;
  /** SCOUT_SPONSORED_MAX; 0 turns ads off. */
  maxAds: number;
  clickUrl: (recId: string) => string;
  now: () => Date;
  /** A failing ad store must never fail a search: errors are reported here and no ad is shown. */
  onError: (err: unknown) => void;
  /** Signs rec_ids (src/sponsored/rec-id.ts); every replica must share it. Default: one key per process. */
  recIdKey?: Uint8Array;
}

function toResult(c: CompiledCampaign, position: number, recId: string, url: string): Result {
  const r = c.record;
  const out: Result = {
    type: 'sponsored',
    position,
    title: r.title,
    url,
    domain: c.landingDomain,
    content: r.content,
    disclosure: r.disclosure,
    rec_id: recId,
  };
  if (r.incentive) out.incentive = { ...r.incentive };
  return out;
}

/** The bids of every campaign whose keyword occurs in the query and that may show now. */
async function bidsFor(o: SponsoredStageOptions, query: SearchQuery): Promise<Bid[]> {
  const snap = await o.snapshots.get();
  if (snap.index.size === 0) return [];
  const words = tokenize(query.query);
  if (words.length === 0) return [];
  const forms = words.map(wordForms);
  const matches = snap.index.match(forms);
  if (matches.length === 0) return [];
  const req: AdRequest = {
    words: forms,
    includeDomains: query.includeDomains,
    excludeDomains: query.excludeDomains,
    today: snap.day,
    ...(query.country !== undefined ? { country: query.country } : {}),
  };
  const topic = topicPositions(words);
  const bids: Bid[] = [];
  for (const m of matches) {
    if (whyIneligible(m.campaign, req, snap.spend.get(m.campaign.record.id) ?? NO_SPEND) !== undefined) continue;
    bids.push({ campaign: m.campaign, relevance: relevance(m.covered, topic) });
  }
  return bids;
}

/**
 * Chooses the sponsored entries of one search (docs/sponsored.md). It reads only the query:
 * organic results are never passed in, so they cannot be touched. The impression of each
 * entry is queued, not written: the response never waits for storage.
 */
export function createSponsoredStage(o: SponsoredStageOptions): SponsoredStage {
  const key = recIdKeyOrDefault(o.recIdKey);
  return {
    async select(query: SearchQuery, ctx: RequestContext): Promise<SponsoredPick[]> {
      if (o.maxAds <= 0) return [];
      let winners: Bid[];
      try {
        winners = runAuction(await bidsFor(o, query), o.maxAds);
      } catch (e) {
        o.onError(e);
        return [];
      }
      const shownAt = o.now().getTime();
      return winners.map(({ campaign }, i) => {
        const recId = newRecId(campaign.record.id, key, shownAt);
        o.queue.push({
          kind: 'impression',
          impression: {
            recId,
            campaignId: campaign.record.id,
            landingUrl: campaign.record.url,
            shownAt,
            requestId: ctx.requestId,
            position: i + 1,
          },
        });
        return { result: toResult(campaign, i + 1, recId, o.clickUrl(recId)), advertiser: campaign.record.advertiser };
      });
    },
  };
}
