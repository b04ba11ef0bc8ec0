import type { ImpressionRecord } from '../ports.ts';
import { int } from './sql-codec.ts';

/** The `impressions` table ⇄ ImpressionRecord, for the SQLite and the PostgreSQL store alike. */

/** The columns an impression is written with and read back from (read_at, clicked_at and charge_micros come later). */
export const IMPRESSION_COLUMNS = [
  'rec_id',
  'campaign_id',
  'landing_url',
  'shown_at',
  'request_id',
  'position',
] as const;

export interface ImpressionRow {
  rec_id: string;
  campaign_id: string;
  landing_url: string;
  /** Epoch ms: a number from SQLite, bigint text from pg. */
  shown_at: number | string;
  request_id: string;
  position: number;
}

export const impressionFromRow = (r: ImpressionRow): ImpressionRecord => ({
  recId: r.rec_id,
  campaignId: r.campaign_id,
  landingUrl: r.landing_url,
  shownAt: int(r.shown_at),
  requestId: r.request_id,
  position: r.position,
});

/**
 * Writes the IMPRESSION_COLUMNS values of `i` into `values` from `at` on. Into the caller's
 * array: SQLite fills one parameter array per many-row insert, pg one array per column.
 */
export const putImpression = (values: unknown[], at: number, i: ImpressionRecord): void => {
  values[at] = i.recId;
  values[at + 1] = i.campaignId;
  values[at + 2] = i.landingUrl;
  values[at + 3] = i.shownAt;
  values[at + 4] = i.requestId;
  values[at + 5] = i.position;
};
