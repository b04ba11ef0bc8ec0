import { isCalendarDate, isoDay } from '../domain/calendar-date.ts';
import { DomainError } from '../domain/errors.ts';
import type { Campaign, CampaignReport } from '../schemas/campaign.ts';
import type { CampaignRecord, CampaignStatus, SponsoredStores } from '../store/ports.ts';
import { describeProblems, validateCampaignFile, type CampaignDefinition } from './campaign-validation.ts';
import { toCampaignView, toReportRow } from './campaign-view.ts';
import { createLandingCheck, type LandingCheck } from './landing-check.ts';
import { newCampaignId } from './rec-id.ts';

export interface CampaignAdminOptions {
  stores: SponsoredStores;
  now: () => Date;
  /** Called after every change, so this process's keyword index reloads at once. */
  onChange: () => void;
  /**
   * Judges landing URLs (SCOUT_FETCH_ALLOW_CIDRS, resolver). Default: no allowlist and the
   * system resolver, so a caller that passes nothing still gets the strict check.
   */
  landing?: LandingCheck;
}

/** The operations of `scout campaigns …` and of /admin/v1/campaigns. */
export interface CampaignAdmin {
  /** Validates a parsed campaign file (every problem listed, nothing stored when invalid). */
  create(file: unknown): Promise<Campaign>;
  list(): Promise<Campaign[]>;
  get(id: string): Promise<Campaign>;
  /** Replaces the definition with a new campaign file; spend and events are kept. */
  replace(id: string, file: unknown): Promise<Campaign>;
  pause(id: string): Promise<Campaign>;
  resume(id: string): Promise<Campaign>;
  delete(id: string): Promise<void>;
  /** Per campaign: impressions, agent reads, clicks, spend and read rate since a UTC day. */
  report(since?: string): Promise<CampaignReport>;
}

const notFound = (id: string) =>
  new DomainError('not_found', `no campaign with id "${id.slice(0, 40)}"; list campaigns to see their ids`);

async function definitionOf(file: unknown, landing: LandingCheck): Promise<CampaignDefinition> {
  const v = validateCampaignFile(file, landing);
  if (!v.ok) throw new DomainError('invalid', describeProblems(v.problems));
  // Resolved only once the file is otherwise valid: no DNS traffic for a file refused anyway.
  const verdict = await landing.check(new URL(v.definition.url));
  if (verdict.ok) return v.definition;
  if (verdict.kind === 'unresolved' && verdict.temporary) {
    const host = verdict.via ?? new URL(v.definition.url).hostname;
    throw new DomainError(
      'unavailable',
      `could not check url host ${host} (${verdict.reason}); nothing was stored, try again`,
    );
  }
  if (verdict.kind === 'unreachable') {
    // Where the page redirects is unknown: not stored, as a refused hop could be behind it.
    throw new DomainError(
      'unavailable',
      `${verdict.problem}; nothing was stored: try again once the landing page answers`,
    );
  }
  throw new DomainError('invalid', describeProblems([verdict.problem]));
}

export function createCampaignAdmin(o: CampaignAdminOptions): CampaignAdmin {
  const { campaigns, events } = o.stores;
  const stamp = () => o.now().toISOString();
  const landing = o.landing ?? createLandingCheck({ allowCidrs: [] });

  async function setStatus(id: string, status: CampaignStatus): Promise<Campaign> {
    const r = await campaigns.setStatus(id, status, stamp());
    if (!r) throw notFound(id);
    o.onChange();
    return toCampaignView(r);
  }

  return {
    async create(file) {
      const at = stamp();
      const record: CampaignRecord = {
        ...(await definitionOf(file, landing)),
        id: newCampaignId(),
        createdAt: at,
        updatedAt: at,
      };
      await campaigns.insert(record);
      o.onChange();
      return toCampaignView(record);
    },
    async list() {
      return (await campaigns.list()).map(toCampaignView);
    },
    async get(id) {
      const r = await campaigns.get(id);
      if (!r) throw notFound(id);
      return toCampaignView(r);
    },
    async replace(id, file) {
      const old = await campaigns.get(id);
      if (!old) throw notFound(id);
      const record: CampaignRecord = {
        ...(await definitionOf(file, landing)),
        id,
        createdAt: old.createdAt,
        updatedAt: stamp(),
      };
      if (!(await campaigns.replace(record))) throw notFound(id);
      o.onChange();
      return toCampaignView(record);
    },
    pause: (id) => setStatus(id, 'paused'),
    resume: (id) => setStatus(id, 'active'),
    async delete(id) {
      if (!(await campaigns.delete(id, stamp()))) throw notFound(id);
      o.onChange();
    },
    async report(since) {
      if (since !== undefined && !isCalendarDate(since))
        throw new DomainError('invalid', 'since must be a date YYYY-MM-DD (UTC day)');
      const [list, stats, spend] = await Promise.all([
        campaigns.list(),
        events.stats(since),
        events.spend(isoDay(o.now())),
      ]);
      const statsOf = new Map(stats.map((s) => [s.campaignId, s]));
      const totalOf = new Map(spend.map((s) => [s.campaignId, s.totalMicros]));
      return {
        since: since ?? null,
        campaigns: list.map((r) => toReportRow(r, statsOf.get(r.id), totalOf.get(r.id) ?? 0)),
      };
    },
  };
}
