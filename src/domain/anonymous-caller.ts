/**
 * Callers of the anonymous tier (SCOUT_ANONYMOUS_RPM, docs/compat.md): requests that carry
 * no key at all. Each client address group is one caller, `anon:<group>`, for its rate-limit
 * bucket and its fair share of the fetch capacity. Key ids are `key_…`, so the two never meet.
 */
const PREFIX = 'anon:';

/** The caller id of one address group (src/http/address-group.ts). */
export const anonymousCaller = (group: string): string => `${PREFIX}${group}`;

/** Whether a caller id (RequestContext.caller, a rate-limit bucket) is an anonymous one. */
export const isAnonymousCaller = (caller: string | undefined): boolean => caller?.startsWith(PREFIX) === true;

/**
 * The one id under which every anonymous request is counted in key usage (the dashboard, the
 * key store's usage rows): one aggregate, never a row per address. Not a key id, and a key
 * store keeps its usage although no key has it.
 */
export const ANONYMOUS_USAGE_ID = 'anonymous';
