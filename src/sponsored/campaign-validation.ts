import type { TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { isCalendarDate } from '../domain/calendar-date.ts';
import { STOP_WORDS } from '../content/stop-words.ts';
import { CampaignFile } from '../schemas/campaign.ts';
import { RULE } from '../schemas/rule.ts';
import type { CampaignRecord } from '../store/ports.ts';
import { COUNTRY_CODES, COUNTRY_HINTS } from '../domain/countries.ts';
import { createLandingCheck, type LandingCheck } from './landing-check.ts';
import { tokenize } from './text-match.ts';

/** A campaign's definition: the record without its identity and timestamps. */
export type CampaignDefinition = Omit<CampaignRecord, 'id' | 'createdAt' | 'updatedAt'>;

export type CampaignValidation = { ok: true; definition: CampaignDefinition } | { ok: false; problems: string[] };

const label = (path: string): string =>
  path
    .split('/')
    .slice(1)
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join('');

/** The schema at a JSON pointer of the value (object properties and array items). */
function schemaAt(root: TSchema, path: string): TSchema | undefined {
  let s: TSchema | undefined = root;
  for (const seg of path.split('/').slice(1)) {
    if (!s) return undefined;
    s = /^\d+$/.test(seg) && s.items ? (s.items as TSchema) : (s.properties?.[seg] as TSchema | undefined);
  }
  return s;
}

function describeError(e: ValueError): string {
  const name = label(e.path);
  if (e.type === ValueErrorType.ObjectAdditionalProperties) {
    const parent = e.path.slice(0, e.path.lastIndexOf('/'));
    const allowed = Object.keys(schemaAt(CampaignFile, parent)?.properties ?? {}).join(', ');
    return `unknown field "${name}"; allowed fields${parent ? ` of ${label(parent)}` : ''} are ${allowed}`;
  }
  const rule = schemaAt(CampaignFile, e.path)?.[RULE] as string | undefined;
  if (e.type === ValueErrorType.ObjectRequiredProperty)
    return rule ? `${name} is required and ${rule}` : `${name} is required`;
  return rule ? `${name} ${rule}` : `${name}: ${e.message.toLowerCase()}`;
}

/** Shape problems, one per field: a missing field also fails its type check, so keep the first. */
function shapeProblems(value: unknown): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of Value.Errors(CampaignFile, value)) {
    if ([...seen].some((p) => e.path === p || e.path.startsWith(`${p}/`))) continue;
    seen.add(e.path);
    out.push(describeError(e));
  }
  return out;
}

/** Non-empty but only spaces (empty strings already fail their length rule). */
const blank = (s: unknown): boolean => typeof s === 'string' && s.length > 0 && s.trim() === '';

function landingUrlProblem(raw: unknown, landing: Pick<LandingCheck, 'urlProblem'>): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `url "${raw.slice(0, 100)}" is not an absolute URL; write it as https://example.com/page`;
  }
  return landing.urlProblem(u);
}

/** Rules a schema cannot say: a public landing page, real dates, real countries, meaningful keywords, coherent money. */
function meaningProblems(f: Record<string, unknown>, landing: Pick<LandingCheck, 'urlProblem'>): string[] {
  const out: string[] = [];
  for (const k of ['advertiser', 'title', 'content', 'disclosure'] as const)
    if (blank(f[k])) out.push(`${k} must not be blank`);
  const urlProblem = landingUrlProblem(f.url, landing);
  if (urlProblem) out.push(urlProblem);
  for (const k of ['start_date', 'end_date'] as const) {
    const d = f[k];
    if (typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d) && !isCalendarDate(d))
      out.push(`${k} ${d} is not a calendar day`);
  }
  if (
    typeof f.start_date === 'string' &&
    typeof f.end_date === 'string' &&
    isCalendarDate(f.start_date) &&
    isCalendarDate(f.end_date) &&
    f.end_date < f.start_date
  ) {
    out.push('end_date must not be before start_date');
  }
  for (const k of ['keywords', 'negative_keywords'] as const) {
    const list = f[k];
    if (!Array.isArray(list)) continue;
    list.forEach((p, i) => {
      if (typeof p !== 'string' || p.length === 0 || p.length > 100) return;
      const words = tokenize(p);
      if (words.length === 0) out.push(`${k}[${i}] "${p}" has no words (letters or digits)`);
      else if (k === 'keywords' && words.every((w) => STOP_WORDS.has(w))) {
        out.push(`keywords[${i}] "${p}" has only stop words, so it would match unrelated queries; add a topic word`);
      }
    });
  }
  if (Array.isArray(f.countries)) {
    f.countries.forEach((c, i) => {
      if (typeof c !== 'string' || !/^[A-Za-z]{2}$/.test(c) || COUNTRY_CODES.has(c.toUpperCase())) return;
      const hint = COUNTRY_HINTS[c.toUpperCase()];
      out.push(`countries[${i}] "${c}" is not an ISO 3166-1 alpha-2 country code${hint ? ` (${hint})` : ''}`);
    });
  }
  const int = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
  if (int(f.bid_micros) && int(f.budget_micros) && f.bid_micros > f.budget_micros)
    out.push('bid_micros must not exceed budget_micros');
  if (int(f.bid_micros) && int(f.daily_cap_micros) && f.daily_cap_micros < f.bid_micros)
    out.push('daily_cap_micros must be at least bid_micros');
  const inc = f.incentive as Record<string, unknown> | undefined;
  if (inc && typeof inc === 'object') {
    if (inc.kind === 'code' && inc.code === undefined)
      out.push('incentive.code is required when incentive.kind is code');
    for (const k of ['code', 'benefit'] as const) if (blank(inc[k])) out.push(`incentive.${k} must not be blank`);
  }
  return out;
}

function toDefinition(f: CampaignFile): CampaignDefinition {
  const advertiser = f.advertiser.trim();
  return {
    advertiser,
    title: f.title.trim(),
    url: new URL(f.url).href,
    content: f.content.trim(),
    keywords: f.keywords.map((k) => k.trim()),
    negativeKeywords: (f.negative_keywords ?? []).map((k) => k.trim()),
    countries: [...new Set((f.countries ?? []).map((c) => c.toUpperCase()))],
    bidMicros: f.bid_micros,
    budgetMicros: f.budget_micros,
    dailyCapMicros: f.daily_cap_micros ?? null,
    startDate: f.start_date ?? null,
    endDate: f.end_date ?? null,
    status: f.status ?? 'active',
    disclosure: f.disclosure?.trim() ?? `Sponsored · ${advertiser}`,
    incentive: f.incentive
      ? {
          kind: f.incentive.kind,
          benefit: f.incentive.benefit.trim(),
          ...(f.incentive.code !== undefined ? { code: f.incentive.code.trim() } : {}),
        }
      : null,
  };
}

// Without the operator's allowlist nothing special is reachable: the strict default.
const STRICT_LANDING = createLandingCheck({ allowCidrs: [] });

/**
 * Checks a parsed campaign file; lists every problem found, not just the first. The landing
 * URL is judged as far as it shows by itself (IP literals, localhost names); its host name is
 * resolved by the caller that stores the campaign (`LandingCheck.check`).
 */
export function validateCampaignFile(
  value: unknown,
  landing: Pick<LandingCheck, 'urlProblem'> = STRICT_LANDING,
): CampaignValidation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problems: [
        `a campaign must be one JSON object with the fields ${Object.keys(CampaignFile.properties).join(', ')}`,
      ],
    };
  }
  const problems = [...shapeProblems(value), ...meaningProblems(value as Record<string, unknown>, landing)];
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, definition: toDefinition(value as CampaignFile) };
}

/** One message for the API caller, every problem numbered. */
export function describeProblems(problems: readonly string[]): string {
  const n = problems.length;
  return `the campaign is invalid (${n} problem${n === 1 ? '' : 's'}): ${problems.map((p, i) => `${i + 1}) ${p}`).join('; ')}`;
}
