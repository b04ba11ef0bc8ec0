import { must } from './must.ts';
/**
 * Publication dates from every provider → ISO 8601 in UTC: `YYYY-MM-DDTHH:MM:SSZ` when the
 * time is known, `YYYY-MM-DD` when only the day is (docs/api.md "Search results"). Providers send ISO with or without a zone (Brave `page_age`, SearXNG
 * `publishedDate`, Exa `publishedDate`, Tavily `published_date`), relative ages ("2 days
 * ago": Brave `age`, Serper `date`) and English dates ("Jan 5, 2025": Serper). A date Scout
 * cannot read is dropped rather than guessed. `now` anchors relative ages (tests pass one).
 */

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
/** Full names, three-letter abbreviations and "sept". */
const MONTHS = new Map<string, number>([
  ...MONTH_NAMES.map((n, i) => [n, i] as const),
  ...MONTH_NAMES.map((n, i) => [n.slice(0, 3), i] as const),
  ['sept', 8],
]);

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const RELATIVE_RE = /^(\d+|an?|one)\s+(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago$/i;
const MONTH_FIRST_RE = /^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i;
const DAY_FIRST_RE = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\.?,?\s+(\d{4})$/i;
/** RFC 2822 / HTTP dates, as Tavily sends: "Mon, 06 Jan 2025 10:00:00 GMT". */
const RFC2822_RE =
  /^(?:[a-z]{3},\s*)?(\d{1,2})\s+([a-z]{3,9})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s*(GMT|UTC|UT|Z|[+-]\d{4})?$/i;

const format = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A positive whole number of Unix seconds (Stack Exchange's, Algolia's dates) as ISO 8601 UTC; else undefined. */
export const dateFromUnixSeconds = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? format(v * 1000) : undefined;
const formatDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Date.UTC that refuses overflow (2025-02-30 is not 2025-03-02). */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | undefined {
  const ms = Date.UTC(y, mo, d, h, mi, s);
  const t = new Date(ms);
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo || t.getUTCDate() !== d) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return ms;
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

function fromIso(m: RegExpExecArray): string | undefined {
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const local = utc(y, mo, d, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  if (local === undefined) return undefined;
  if (m[4] === undefined) return formatDay(local);
  // A time without a zone is taken as UTC: providers mean UTC, and the server's zone is noise.
  return format(local - zoneOffsetMinutes(m[7]) * 60_000);
}

/** Group i of a match of one of the patterns above, one that always takes part in it. */
const group = (m: RegExpExecArray, i: number): string => must(m[i], 'a group of a date pattern');

function fromRelative(m: RegExpExecArray, now: Date): string {
  const count = group(m, 1);
  const n = /^\d+$/.test(count) ? Number(count) : 1;
  const unit = group(m, 2).toLowerCase();
  const t = new Date(now.getTime());
  if (unit.startsWith('s')) t.setUTCSeconds(t.getUTCSeconds() - n);
  else if (unit.startsWith('mi')) t.setUTCMinutes(t.getUTCMinutes() - n);
  else if (unit.startsWith('h')) t.setUTCHours(t.getUTCHours() - n);
  else if (unit.startsWith('d')) t.setUTCDate(t.getUTCDate() - n);
  else if (unit.startsWith('w')) t.setUTCDate(t.getUTCDate() - 7 * n);
  else if (unit.startsWith('mo')) t.setUTCMonth(t.getUTCMonth() - n);
  else t.setUTCFullYear(t.getUTCFullYear() - n);
  // "2 days ago" is precise to the day: no invented time of day.
  return /^(d|w|mo|y)/.test(unit) ? formatDay(t.getTime()) : format(t.getTime());
}

function fromNamedMonth(month: string, day: string, year: string): string | undefined {
  const mo = MONTHS.get(month.toLowerCase());
  if (mo === undefined) return undefined;
  const ms = utc(Number(year), mo, Number(day));
  return ms === undefined ? undefined : formatDay(ms);
}

function fromRfc2822(m: RegExpExecArray): string | undefined {
  const mo = MONTHS.get(group(m, 2).toLowerCase());
  if (mo === undefined) return undefined;
  const local = utc(Number(m[3]), mo, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  if (local === undefined) return undefined;
  const zone = m[7] && /^[+-]/.test(m[7]) ? m[7] : undefined;
  return format(local - zoneOffsetMinutes(zone) * 60_000);
}

const dayOf = (now: Date, daysBack: number): string => formatDay(now.getTime() - daysBack * 86_400_000);

/**
 * ISO dates already read (their form does not depend on `now`): every local result carries
 * one, and reading it again cost more than the rest of turning a hit into a result.
 */
const isoRead = new Map<string, string | undefined>();
const ISO_REMEMBERED = 10_000;

/** Any provider's date → `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DD`, or undefined when it cannot be read. */
export function normalizeDate(raw: unknown, now: Date): string | undefined {
  if (typeof raw !== 'string') return undefined;
  if (isoRead.has(raw)) return isoRead.get(raw);
  const s = raw.trim().replace(/\s+/g, ' ');
  if (s === '' || s.length > 64) return undefined;
  let m = ISO_RE.exec(s);
  if (m) {
    const iso = fromIso(m);
    if (isoRead.size >= ISO_REMEMBERED) isoRead.clear();
    isoRead.set(raw, iso);
    return iso;
  }
  m = RELATIVE_RE.exec(s);
  if (m) return fromRelative(m, now);
  const lower = s.toLowerCase();
  if (lower === 'today') return dayOf(now, 0);
  if (lower === 'just now') return format(Math.floor(now.getTime() / 1000) * 1000);
  if (lower === 'yesterday') return dayOf(now, 1);
  m = RFC2822_RE.exec(s);
  if (m) return fromRfc2822(m);
  m = MONTH_FIRST_RE.exec(s);
  if (m) return fromNamedMonth(group(m, 1), group(m, 2), group(m, 3));
  m = DAY_FIRST_RE.exec(s);
  if (m) return fromNamedMonth(group(m, 2), group(m, 1), group(m, 3));
  return undefined;
}
