import type { Config } from '../config/settings.ts';
import type { SponsoredStage } from '../search/search-service.ts';
import type { Resolver } from '../fetch/url-guard.ts';
import type { SponsoredStores } from '../store/ports.ts';
import { createCampaignAdmin, type CampaignAdmin } from './campaign-admin.ts';
import { createSnapshotSource } from './campaign-snapshot.ts';
import { createClickLinks, type ClickLinks } from './click-links.ts';
import { createEventQueue } from './event-queue.ts';
import { createLandingCheck } from './landing-check.ts';
import type { LandingProbe } from './landing-probe.ts';
import { recIdKeyOrDefault } from './rec-id.ts';
import { createSponsoredStage } from './sponsored-stage.ts';

/**
 * How landing pages are checked (src/sponsored/landing-check.ts): the system resolver and
 * real requests by default; a stub resolver (tests) must come with a stub probe, or the
 * check would connect to whatever public address the stub made up.
 */
export type LandingNetwork =
  | { resolver?: undefined; landingProbe?: LandingProbe }
  | { resolver: Resolver; landingProbe: LandingProbe };

export type SponsoredOptions = SponsoredSettings & LandingNetwork;

interface SponsoredSettings {
  /** SCOUT_SPONSORED_MAX; 0 turns ads off (campaigns can still be managed). */
  maxAds: number;
  /** SCOUT_SPONSORED_REC_TTL_DAYS. */
  recTtlDays: number;
  /** Base of click URLs: SCOUT_PUBLIC_URL, or http://localhost:PORT. */
  publicUrl: string;
  /** Storage and ad-store failures; ads are skipped, searches still answer. Default: process warning. */
  onError?: (err: unknown) => void;
  /** Event writes succeed again after failures (told once per outage). */
  onEventsRecovered?: () => void;
  now?: () => Date;
  /** Longest wait before queued events are written (default 200 ms). */
  flushMs?: number;
  /** How often the campaign version is checked (default 1000 ms; 0 on every search). */
  refreshMs?: number;
  /** SCOUT_FETCH_ALLOW_CIDRS: landing URLs may be on these ranges, as fetches may (default none). */
  allowCidrs?: readonly string[];
  /** The deadline of one landing check, every redirect included: SCOUT_FETCH_TIMEOUT_MS (default 10 s). */
  landingTimeoutMs?: number;
  /** Campaigns, events and secrets, as store/create-stores.ts opened them; closed by close(). */
  stores: SponsoredStores;
  /**
   * Signs rec_ids (at least 16 bytes): replicas sharing a store must share it, or a click URL
   * whose impression row was never written resolves only on the replica that issued it.
   * Default: a random key per process.
   */
  recIdKey?: Uint8Array;
}

export interface Sponsored {
  /** Pass as `sponsored` to createSearchService. */
  stage: SponsoredStage;
  /** Pass as `resolveClickUrl` to createFetchService. */
  resolveClickUrl: ClickLinks['resolveClickUrl'];
  /** For the click route (src/http/routes/click.ts). */
  clicks: ClickLinks;
  /** For the CLI and the admin routes. */
  admin: CampaignAdmin;
  /** Writes queued events now (tests, reports right after traffic). */
  flush(): Promise<void>;
  /** Events waiting to be written (metrics). */
  backlog(): number;
  /** Writes queued events, then closes the store. Call after the HTTP server has closed. */
  close(): Promise<void>;
}

/** The options createSponsored needs, from the loaded Config. */
export function sponsoredOptionsFrom(
  config: Pick<
    Config,
    'sponsoredMax' | 'sponsoredRecTtlDays' | 'publicUrl' | 'port' | 'fetchAllowCidrs' | 'fetchTimeoutMs'
  >,
): Omit<SponsoredSettings, 'stores'> {
  return {
    maxAds: config.sponsoredMax,
    recTtlDays: config.sponsoredRecTtlDays,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    allowCidrs: config.fetchAllowCidrs,
    landingTimeoutMs: config.fetchTimeoutMs,
  };
}

const warn = (err: unknown): void => {
  process.emitWarning(`sponsored results: ${err instanceof Error ? err.message : String(err)}`);
};

/** Wires the sponsored side: store, write-behind queue, keyword index, stage, click links, admin. */
export function createSponsored(o: SponsoredOptions): Sponsored {
  const now = o.now ?? (() => new Date());
  const recIdKey = recIdKeyOrDefault(o.recIdKey);
  const onError = o.onError ?? warn;
  const { stores } = o;
  const snapshots = createSnapshotSource({
    campaigns: stores.campaigns,
    events: stores.events,
    refreshMs: o.refreshMs ?? 1000,
    now,
  });
  const queue = createEventQueue({
    store: stores.events,
    flushMs: o.flushMs ?? 200,
    onCharges: snapshots.applyCharges,
    onError,
    ...(o.onEventsRecovered ? { onRecovered: o.onEventsRecovered } : {}),
  });
  // One landing policy for storing and for following: the fetch pipeline's, allowlist included.
  const landing = createLandingCheck({
    allowCidrs: o.allowCidrs ?? [],
    ...(o.landingTimeoutMs === undefined ? {} : { timeoutMs: o.landingTimeoutMs }),
    ...(o.resolver ? { resolver: o.resolver, probe: o.landingProbe } : o.landingProbe ? { probe: o.landingProbe } : {}),
  });
  const clicks = createClickLinks({
    publicUrl: o.publicUrl,
    events: stores.events,
    campaigns: stores.campaigns,
    queue,
    recTtlMs: o.recTtlDays * 86_400_000,
    now,
    landing,
    recIdKey,
  });
  const stage = createSponsoredStage({
    snapshots,
    queue,
    maxAds: o.maxAds,
    clickUrl: clicks.clickUrl,
    now,
    onError,
    recIdKey,
  });
  const admin = createCampaignAdmin({ stores, now, onChange: snapshots.invalidate, landing });
  return {
    stage,
    resolveClickUrl: clicks.resolveClickUrl,
    clicks,
    admin,
    flush: () => queue.flush(),
    backlog: () => queue.backlog(),
    async close() {
      await queue.close();
      await stores.close();
    },
  };
}
