import { isoDay } from '../domain/calendar-date.ts';
import type { AdEventStore, CampaignStore, Charge } from '../store/ports.ts';
import type { Spend } from './eligibility.ts';
import { buildKeywordIndex, compileCampaign, type KeywordIndex } from './keyword-index.ts';

/** What one search matches against: the keyword index of live campaigns and their spend. */
export interface Snapshot {
  index: KeywordIndex;
  /** UTC day the `dayMicros` of `spend` belong to. */
  day: string;
  spend: Map<string, Spend>;
}

export interface SnapshotSourceOptions {
  campaigns: CampaignStore;
  events: AdEventStore;
  /** How often the store's campaign version is checked; 0 checks on every search. */
  refreshMs: number;
  now: () => Date;
}

export interface SnapshotSource {
  get(): Promise<Snapshot>;
  /** The next get() checks the store (after a change made by this process). */
  invalidate(): void;
  /** Adds the charges of a written event batch to the in-memory spend. */
  applyCharges(charges: readonly Charge[]): void;
}

const DAY_MS = 86_400_000;

function addCharges(s: Snapshot, charges: readonly Charge[]): void {
  for (const c of charges) {
    const spend = s.spend.get(c.campaignId) ?? { totalMicros: 0, dayMicros: 0 };
    spend.totalMicros += c.micros;
    if (c.day === s.day) spend.dayMicros += c.micros;
    s.spend.set(c.campaignId, spend);
  }
}

/**
 * Keeps the keyword index in memory and rebuilds it only when the store's campaign version
 * moves (any writer: admin API, CLI, another server), so a search never scans campaigns.
 * The version is checked at most every `refreshMs`; spend is reloaded with it and on each
 * new UTC day, and kept exact in between from the charges the event queue reports.
 */
export function createSnapshotSource(o: SnapshotSourceOptions): SnapshotSource {
  let current: Snapshot | undefined;
  /** Days since the epoch of `current.day`. */
  let dayNumber = Number.NaN;
  let version = -1;
  let checkedAt = -Infinity;
  /** Set by invalidate(); a reload that started before it does not count as a fresh check. */
  let invalidated = false;
  let loading: Promise<Snapshot> | undefined;
  /** Charges written while a reload runs, applied again to the reloaded spend. */
  let chargesDuringLoad: Charge[] | undefined;

  async function buildIndex(): Promise<KeywordIndex> {
    const live = await o.campaigns.list();
    return buildKeywordIndex(live.filter((c) => c.status === 'active').map(compileCampaign));
  }

  async function load(): Promise<Snapshot> {
    const at = o.now();
    const day = isoDay(at);
    invalidated = false;
    const v = await o.campaigns.version();
    const checked = () => (invalidated ? -Infinity : at.getTime());
    if (current && v === version && current.day === day) {
      checkedAt = checked();
      return current;
    }
    // The spend read starts before the marker is set, so charges reported from here on are
    // not in it (the embedded store reads synchronously on call).
    const spendRows = o.events.spend(day);
    chargesDuringLoad = [];
    try {
      const rows = await spendRows;
      // Same version on a new day: only spend needs reloading.
      const index = current && v === version ? current.index : await buildIndex();
      const spend = new Map(rows.map((r) => [r.campaignId, { totalMicros: r.totalMicros, dayMicros: r.dayMicros }]));
      const next: Snapshot = { index, day, spend };
      addCharges(next, chargesDuringLoad);
      current = next;
      dayNumber = Math.floor(at.getTime() / DAY_MS);
      version = v;
      checkedAt = checked();
      return next;
    } finally {
      chargesDuringLoad = undefined;
    }
  }

  return {
    get() {
      const at = o.now();
      const ms = at.getTime();
      // Same UTC day as the snapshot, without formatting a date on every search.
      const sameDay = current !== undefined && Math.floor(ms / DAY_MS) === dayNumber;
      if (current && sameDay && ms - checkedAt < o.refreshMs) return Promise.resolve(current);
      loading ??= load().finally(() => {
        loading = undefined;
      });
      return loading;
    },
    invalidate() {
      checkedAt = -Infinity;
      invalidated = true;
    },
    applyCharges(charges) {
      if (charges.length === 0) return;
      if (current) addCharges(current, charges);
      chargesDuringLoad?.push(...charges);
    },
  };
}
