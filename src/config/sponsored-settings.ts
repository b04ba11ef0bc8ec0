import { int, type Parser } from './parsers.ts';
import { s } from './setting.ts';

/**
 * The admin token guards /admin/v1/campaigns. Unset ('') turns the admin API off; a set
 * token must be long enough that guessing it is hopeless (it is compared in constant time,
 * but nothing rate-limits an attacker's guesses).
 */
const adminToken: Parser<string | undefined> = (raw) => {
  const v = raw.trim();
  if (v === '') return undefined;
  if (v.length < 24)
    throw new Error('must be at least 24 characters (e.g. `openssl rand -hex 24`), or unset to turn the admin API off');
  if (/\s/.test(v)) throw new Error('must not contain spaces');
  return v;
};

/** Settings of the sponsored-results side, spread into the main table by settings.ts. */
export const sponsoredSettings = {
  sponsoredMax: s(
    'SCOUT_SPONSORED_MAX',
    int(0, 10),
    '2',
    'Most sponsored entries shown above the organic results of one search; 0 turns ads off. Sponsored entries never take an organic slot.',
  ),
  sponsoredRecTtlDays: s(
    'SCOUT_SPONSORED_REC_TTL_DAYS',
    int(1, 365),
    '30',
    'Days a sponsored click URL (rec_id) stays valid; past it fetch answers 400 and the redirect 404.',
  ),
  adminToken: s(
    'SCOUT_ADMIN_TOKEN',
    adminToken,
    '',
    'Bearer token of the operator side: the dashboard at /admin, the admin API (/admin/v1/*: campaigns, keys, overview) and GET /metrics on the API port; at least 24 characters. Unset: all of them are off (404). API keys never authorise them.',
  ),
} as const;
