/**
 * Settings of the upstream search providers (URLs, API keys, timeouts), spread into the
 * main settings table by settings.ts.
 */
export const providerSettings = {} as const;
