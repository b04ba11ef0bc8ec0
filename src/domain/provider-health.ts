/**
 * A search provider's health as an operator reads it (`scout providers check`, /admin,
 * /metrics): `ok`, `blocked` (a CAPTCHA or other refusal of automated queries, or a rate
 * limit), `parse_failed` (the answer came but could not be read: the engine changed its
 * markup or format; never reported as "no results"), `unreachable` (no answer: network,
 * timeout) or `error` (refused: an API key, an HTTP error, a fault in Scout).
 */
export type ProviderHealth = 'ok' | 'blocked' | 'parse_failed' | 'unreachable' | 'error';

export const PROVIDER_HEALTHS: readonly ProviderHealth[] = ['ok', 'blocked', 'parse_failed', 'unreachable', 'error'];
