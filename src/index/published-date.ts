import { isCalendarDate } from '../domain/calendar-date.ts';
import { must } from '../domain/must.ts';

/**
 * Publication dates of indexed documents. Stored as ISO 8601 with the precision the source
 * gave: a date stays `YYYY-MM-DD`; a date-time becomes UTC `YYYY-MM-DDTHH:MM:SSZ`
 * (fractions dropped, offsets applied, a missing offset read as UTC). Date filters compare
 * the UTC calendar day (`day`), so both forms filter alike.
 */

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export interface PublishedDate {
  /** Stored and returned by LocalIndex.search (the provider unifies the form with other providers). */
  iso: string;
  /** UTC day, YYYY-MM-DD, what date filters compare. */
  day: string;
}

/** Parses an ISO 8601 date or date-time; undefined when it is not one. */
export function parsePublishedDate(raw: string): PublishedDate | undefined {
  const s = raw.trim();
  if (isCalendarDate(s)) return { iso: s, day: s };
  const m = DATE_TIME.exec(s);
  if (!m || !isCalendarDate(must(m[1], 'the date of a date-time'))) return undefined;
  const [hh, mm, ss] = [Number(m[2]), Number(m[3]), Number(m[4] ?? '0')];
  if (hh > 23 || mm > 59 || ss > 59) return undefined;
  const offset = (m[5] ?? 'Z').toUpperCase();
  const zone = offset === 'Z' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${String(ss).padStart(2, '0')}${zone}`);
  if (Number.isNaN(t)) return undefined;
  const iso = new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { iso, day: iso.slice(0, 10) };
}
