import { isoDay } from '../../domain/calendar-date.ts';
import { readChargeMicros } from '../charge-rule.ts';
import type { AdEvent, AdEventStore, CampaignStats, Charge, ImpressionRecord } from '../ports.ts';
import { byText } from './by-text.ts';
import type { CampaignPricing } from './memory-campaign-store.ts';

interface Impression {
  record: ImpressionRecord;
  read: boolean;
  clicked: boolean;
}

interface DayCounts {
  campaignId: string;
  day: string;
  impressions: number;
  reads: number;
  clicks: number;
  spendMicros: number;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number): string => isoDay(new Date(Math.floor(ms / DAY_MS) * DAY_MS));

/**
 * Impressions, reads, clicks and spend in process memory: the reference AdEventStore, with
 * the SQLite adapter's semantics. A batch runs without awaiting, so it is one transaction.
 * Impressions go first (one per rec_id, counted on the day shown); then reads and clicks in
 * order: the first read of a known rec_id is counted and charged (src/store/charge-rule.ts)
 * on the read's UTC day, under the campaign the event names; later reads are free; the
 * first click of a known rec_id is counted; reads and clicks of unknown rec_ids change
 * nothing. The audit log of every read and click that SQLite keeps has no port to read it
 * through, so it is not kept here.
 */
export function createMemoryAdEventStore(pricingOf: (campaignId: string) => CampaignPricing | undefined): AdEventStore {
  const impressions = new Map<string, Impression>();
  const days = new Map<string, DayCounts>();
  const spentBy = new Map<string, number>();

  const countsOf = (campaignId: string, day: string): DayCounts => {
    const key = `${campaignId}\u0000${day}`;
    let c = days.get(key);
    if (!c) days.set(key, (c = { campaignId, day, impressions: 0, reads: 0, clicks: 0, spendMicros: 0 }));
    return c;
  };

  function charge(campaignId: string, day: string): number {
    const p = pricingOf(campaignId);
    if (!p) return 0;
    return readChargeMicros({
      ...p,
      spentMicros: spentBy.get(campaignId) ?? 0,
      spentDayMicros: days.get(`${campaignId}\u0000${day}`)?.spendMicros ?? 0,
    });
  }

  function writeBatch(events: readonly AdEvent[]): Charge[] {
    const charges: Charge[] = [];
    for (const e of events) {
      if (e.kind !== 'impression' || impressions.has(e.impression.recId)) continue;
      impressions.set(e.impression.recId, { record: { ...e.impression }, read: false, clicked: false });
      countsOf(e.impression.campaignId, dayOf(e.impression.shownAt)).impressions++;
    }
    for (const e of events) {
      if (e.kind === 'impression') continue;
      const i = impressions.get(e.recId);
      const day = dayOf(e.at);
      if (e.kind === 'click') {
        if (!i || i.clicked) continue;
        i.clicked = true;
        countsOf(e.campaignId, day).clicks++;
      } else {
        if (!i || i.read) continue;
        i.read = true;
        const micros = charge(e.campaignId, day);
        const c = countsOf(e.campaignId, day);
        c.reads++;
        c.spendMicros += micros;
        spentBy.set(e.campaignId, (spentBy.get(e.campaignId) ?? 0) + micros);
        if (micros > 0) charges.push({ campaignId: e.campaignId, day, micros });
      }
    }
    return charges;
  }

  return {
    async write(events) {
      return writeBatch(events);
    },
    async findImpression(recId) {
      const i = impressions.get(recId);
      return i && { ...i.record };
    },
    async spend(day) {
      return [...spentBy]
        .filter(([, total]) => total > 0)
        .sort(([a], [b]) => byText(a, b))
        .map(([campaignId, totalMicros]) => ({
          campaignId,
          totalMicros,
          dayMicros: days.get(`${campaignId}\u0000${day}`)?.spendMicros ?? 0,
        }));
    },
    async stats(sinceDay) {
      const by = new Map<string, CampaignStats>();
      for (const c of days.values()) {
        if (sinceDay !== undefined && c.day < sinceDay) continue;
        let s = by.get(c.campaignId);
        if (!s)
          by.set(c.campaignId, (s = { campaignId: c.campaignId, impressions: 0, reads: 0, clicks: 0, spendMicros: 0 }));
        s.impressions += c.impressions;
        s.reads += c.reads;
        s.clicks += c.clicks;
        s.spendMicros += c.spendMicros;
      }
      return [...by.values()].sort((a, b) => byText(a.campaignId, b.campaignId));
    },
  };
}
