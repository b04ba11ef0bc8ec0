import { cidrList, int } from './parsers.ts';
import { s } from './setting.ts';
import type { Config } from './settings.ts';

/**
 * The anonymous tier (docs/compat.md, "Keyless clients"): requests that carry no key at all,
 * limited per client address, from a share of the monthly budget. Off unless
 * SCOUT_ANONYMOUS_RPM is set; spread into the main settings table by settings.ts.
 */
export const anonymousSettings = {
  anonymousRpm: s(
    'SCOUT_ANONYMOUS_RPM',
    int(0, 1_000_000),
    '0',
    'Requests per minute allowed to each client address (IPv6: one SCOUT_ANONYMOUS_IPV6_PREFIX) when a request carries no key at all; 0 (the default) turns the anonymous tier off: a keyless request is 401. A wrong or revoked key is always 401. See docs/compat.md.',
  ),
  anonymousCidrs: s(
    'SCOUT_ANONYMOUS_CIDRS',
    cidrList,
    '',
    'Comma-separated CIDRs whose clients may go keyless when SCOUT_ANONYMOUS_RPM is on (e.g. 10.0.0.0/8 for a trusted network); others get the usual 401. Empty: every address (a public free tier, warned at start).',
  ),
  anonymousIpv6Prefix: s(
    'SCOUT_ANONYMOUS_IPV6_PREFIX',
    int(32, 128),
    '56',
    'Anonymous IPv6 clients are counted per prefix of this many bits (one customer commonly holds a /56), so one network cannot multiply its limit by its addresses. IPv4 (and IPv4-mapped IPv6) is counted per address.',
  ),
  anonymousBudgetShare: s(
    'SCOUT_ANONYMOUS_BUDGET_SHARE',
    int(0, 100),
    '10',
    'Percent of SCOUT_MONTHLY_SEARCH_BUDGET that all anonymous searches together may spend in a month (rounded down); past it they are refused as an exhausted budget is, while keyed callers are still served. 0: anonymous callers may fetch but not search.',
  ),
} as const;

type Anonymous = Pick<
  Config,
  'anonymousRpm' | 'anonymousCidrs' | 'anonymousIpv6Prefix' | 'anonymousBudgetShare' | 'monthlySearchBudget'
>;

/** Units of the monthly budget the anonymous tier may spend (SCOUT_ANONYMOUS_BUDGET_SHARE percent, rounded down). */
export const anonymousBudgetUnits = (c: Pick<Config, 'anonymousBudgetShare' | 'monthlySearchBudget'>): number =>
  Math.floor((c.monthlySearchBudget * c.anonymousBudgetShare) / 100);

/** The start-up line when the tier is on: `anonymous: 30 requests/min per address (IPv6 /56), from 10.0.0.0/8; 1000 of 10000 search units a month`. */
export function anonymousLine(c: Anonymous): string | undefined {
  if (c.anonymousRpm === 0) return undefined;
  const from = c.anonymousCidrs.length === 0 ? 'from any address' : `from ${c.anonymousCidrs.join(', ')}`;
  return (
    `anonymous: requests without a key allowed, ${c.anonymousRpm} requests/min per address (IPv6 /${c.anonymousIpv6Prefix}), ` +
    `${from}; ${anonymousBudgetUnits(c)} of ${c.monthlySearchBudget} search units a month`
  );
}

/** The start-up warnings of the tier: a public free tier, or ranges set for a tier that is off. */
export function anonymousWarning(c: Anonymous): string | undefined {
  if (c.anonymousRpm === 0) {
    return c.anonymousCidrs.length === 0
      ? undefined
      : 'SCOUT_ANONYMOUS_CIDRS is set but SCOUT_ANONYMOUS_RPM is 0: the anonymous tier is off and keyless requests are 401';
  }
  if (c.anonymousCidrs.length > 0) return undefined;
  return (
    `SCOUT_ANONYMOUS_RPM=${c.anonymousRpm} without SCOUT_ANONYMOUS_CIDRS: any client that reaches Scout may search and fetch without a key ` +
    `(a public free tier, ${anonymousBudgetUnits(c)} search units a month); set SCOUT_ANONYMOUS_CIDRS to limit it to your network`
  );
}
