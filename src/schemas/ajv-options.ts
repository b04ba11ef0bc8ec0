import { RULE } from './rule.ts';

/**
 * Fastify's defaults coerce types ("5" passes as 5) and silently drop unknown fields
 * (TRAPS.md). The spec's types are constraints, so nothing is coerced, removed or defaulted
 * here: defaults are applied by the domain, unknown fields are refused.
 */
export const AJV_OPTIONS = {
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  allErrors: false,
  keywords: [RULE],
} as const;
