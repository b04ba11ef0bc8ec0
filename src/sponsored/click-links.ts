import { DomainError } from '../domain/errors.ts';
import type { AdEventStore, CampaignStore } from '../store/ports.ts';
import type { EventQueue } from './event-queue.ts';
import type { LandingCheck } from './landing-check.ts';
import { isRecId, recIdKeyOrDefault, verifyRecId } from './rec-id.ts';

export interface ClickLinksOptions {
  /** SCOUT_PUBLIC_URL (or http://localhost:PORT): the base of every click URL. */
  publicUrl: string;
  events: AdEventStore;
  /** Resolves a signed rec_id whose impression row was never written (a process killed first). */
  campaigns: CampaignStore;
  queue: EventQueue;
  recTtlMs: number;
  now: () => Date;
  /** Checks the landing host again on every click (it was checked when the campaign was stored). */
  landing: LandingCheck;
  /** The key the sponsored stage signs rec_ids with (the same one). Default: one key per process. */
  recIdKey?: Uint8Array;
}

/** Where a rec_id leads, and whose it is. */
interface Target {
  campaignId: string;
  landingUrl: string;
}

export interface ClickLinks {
  /** `<publicUrl>/v1/r/<rec_id>`. */
  clickUrl(recId: string): string;
  /**
   * The fetch service's hook: for one of Scout's click URLs, the landing URL, with an agent
   * read recorded (charged once per rec_id, and only when its impression is stored); undefined
   * for any other URL. An unknown or
   * expired rec_id is DomainError('invalid').
   */
  resolveClickUrl(url: URL): Promise<{ landingUrl: string; clickPath: 'agent_read' } | undefined>;
  /**
   * GET /v1/r/<rec_id>: the landing URL, with a click recorded when `record`; unknown or expired
   * is not_found. A landing page that is not public now, or redirects somewhere that is not,
   * is forbidden; one whose host cannot be resolved, or that does not answer the check, is
   * upstream; none of them is redirected to nor counted.
   */
  follow(recId: string, record: boolean): Promise<string>;
}

const shown = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

export function createClickLinks(o: ClickLinksOptions): ClickLinks {
  const base = new URL(o.publicUrl);
  const root = o.publicUrl.replace(/\/+$/, '');
  const prefix = `${base.pathname.replace(/\/+$/, '')}/v1/r/`;
  const ttlDays = Math.round(o.recTtlMs / 86_400_000);
  const key = recIdKeyOrDefault(o.recIdKey);

  /**
   * The target of a rec_id Scout issued and that has not expired: from its impression (queued
   * or stored), whose landing URL is the one shown; else, when the id is signed with our key,
   * from its campaign as it is now. The impression may be missing because the process that
   * queued it was killed before writing it, or because another replica has not written it yet.
   * A deleted campaign's id then leads nowhere: without the row there is no URL to send to.
   */
  async function lookup(recId: string): Promise<Target | undefined> {
    if (!isRecId(recId)) return undefined;
    const now = o.now().getTime();
    const imp = o.queue.pendingImpression(recId) ?? (await o.events.findImpression(recId));
    if (imp) return now - imp.shownAt > o.recTtlMs ? undefined : imp;
    const signed = verifyRecId(recId, key);
    if (!signed || now - signed.shownAt > o.recTtlMs) return undefined;
    const campaign = await o.campaigns.get(signed.campaignId);
    return campaign && { campaignId: campaign.id, landingUrl: campaign.url };
  }

  /**
   * The campaign's host may have been re-pointed since it was stored (DNS rebinding), and
   * campaigns stored before landing URLs were checked were never judged. Browsers, not Scout,
   * connect, so a check now is the last chance; the caller learns the host, never the address.
   */
  async function checkLanding(landingUrl: string): Promise<void> {
    const url = new URL(landingUrl);
    const verdict = await o.landing.check(url);
    if (verdict.ok) return;
    // Where the landing page redirects, the browser goes too: a refused hop refuses the link.
    const where =
      verdict.kind !== 'unreachable' && verdict.via !== undefined
        ? `the landing page on ${url.hostname} redirects to ${verdict.via}, which`
        : `the landing page on ${url.hostname}`;
    if (verdict.kind === 'refused')
      throw new DomainError('forbidden', `sponsored link refused: ${where} is not at a public address`);
    if (verdict.kind === 'unresolved') {
      const host = verdict.via ?? url.hostname;
      throw new DomainError(
        'upstream',
        `sponsored link could not be followed: the landing page host ${host} could not be resolved (${verdict.reason}); try again later`,
      );
    }
    // Unchecked is not followed: where it would lead is unknown.
    throw new DomainError(
      'upstream',
      `sponsored link could not be followed: the landing page on ${url.hostname} could not be checked (${verdict.reason}); try again later`,
    );
  }

  const unknown = (recId: string) =>
    `unknown or expired sponsored link "${shown(recId)}": click URLs are valid for ${ttlDays} days after the search that returned them; search again for a fresh link`;

  return {
    clickUrl: (recId) => `${root}/v1/r/${recId}`,

    async resolveClickUrl(url) {
      if (url.origin !== base.origin || !url.pathname.startsWith(prefix)) return undefined;
      const recId = url.pathname.slice(prefix.length).replace(/\/$/, '');
      const target = await lookup(recId);
      if (!target) throw new DomainError('invalid', unknown(recId));
      // A read of a rec_id whose impression row was never written is neither charged nor
      // counted by the store: lost impressions err in the advertiser's favour.
      o.queue.push({ kind: 'read', recId, campaignId: target.campaignId, at: o.now().getTime() });
      return { landingUrl: target.landingUrl, clickPath: 'agent_read' };
    },

    async follow(recId, record) {
      const target = await lookup(recId);
      if (!target) throw new DomainError('not_found', unknown(recId));
      await checkLanding(target.landingUrl);
      if (record) o.queue.push({ kind: 'click', recId, campaignId: target.campaignId, at: o.now().getTime() });
      return target.landingUrl;
    },
  };
}
