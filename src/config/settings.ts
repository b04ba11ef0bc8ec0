import { bool, cidrList, int, list, oneOf, optionalUrl, str } from './parsers.ts';
import { s, type ValuesOf } from './setting.ts';
import { anonymousSettings } from './anonymous-settings.ts';
import { compatSettings } from './compat-settings.ts';
import { fetchCapacitySettings } from './fetch-capacity-settings.ts';
import { fetchSettings } from './fetch-settings.ts';
import { mcpSettings } from './mcp-settings.ts';
import { DEFAULT_SEARCH_PROVIDERS, providerSettings } from './provider-settings.ts';
import { sponsoredSettings } from './sponsored-settings.ts';
import { serverSettings } from './server-settings.ts';
import { storageSettings } from './storage-settings.ts';

/**
 * The settings of the config room, in the order `scout settings` prints them; each search
 * provider's own settings come between the two parts (src/scout-settings.ts joins them all,
 * and the README's settings table documents every name: test/config/load-config.test.ts
 * checks that none is missing). Split in two so that order stays the operators' one: the
 * search settings, each provider's, then sponsored results, the compat shapes and MCP.
 */
export const settingsBeforeProviders = {
  port: s('PORT', int(0, 65535), '8080', 'TCP port the API listens on.'),
  host: s('HOST', str, '0.0.0.0', 'Interface the API binds to.'),
  dataDir: s(
    'SCOUT_DATA_DIR',
    str,
    './data',
    'Folder of the embedded SQLite store (keys, quotas, campaigns, local index) when SCOUT_DATABASE_URL is unset.',
  ),
  ...storageSettings,
  starterCorpus: s(
    'SCOUT_STARTER_CORPUS',
    bool,
    'true',
    "Index Scout's own docs/ folder on first start so a first search finds something.",
  ),
  indexMemoryMb: s(
    'SCOUT_INDEX_MEMORY_MB',
    int(0, 16_777_216),
    '1024',
    "MiB of RAM the local index's in-memory ranker may use (its compact postings take about the text's size; with PostgreSQL storage the texts count too). Past it, postings spill to a temporary file and are read from disk, with the same results. 0 turns the ranker off: SQLite FTS5 ranks alone (slower; refused with PostgreSQL storage).",
  ),
  logLevel: s(
    'SCOUT_LOG_LEVEL',
    oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    'info',
    'pino log level.',
  ),
  publicUrl: s(
    'SCOUT_PUBLIC_URL',
    optionalUrl,
    '',
    "Base URL clients reach Scout at (printed curl line, sponsored click URLs, a Firecrawl crawl job's status URL). Default http://localhost:PORT; a crawl job's status URL then takes the request's own host.",
  ),
  rateLimitRpm: s(
    'SCOUT_RATE_LIMIT_RPM',
    int(1, 1_000_000),
    '60',
    'Requests per minute per API key (token bucket; bursts up to this many).',
  ),
  monthlySearchBudget: s(
    'SCOUT_MONTHLY_SEARCH_BUDGET',
    int(0, 1_000_000_000),
    '10000',
    'Search units per calendar month (UTC) for the whole service: basic = 1, advanced = 2. 0 disables search.',
  ),
  ...anonymousSettings,
  bodyLimitBytes: s(
    'SCOUT_BODY_LIMIT_BYTES',
    int(1024, 10_485_760),
    '65536',
    'Largest accepted request body, in bytes (larger is 413).',
  ),
  ...serverSettings,
  fetchAllowCidrs: s(
    'SCOUT_FETCH_ALLOW_CIDRS',
    cidrList,
    '',
    'DANGEROUS. Comma-separated CIDRs fetch may reach although they are private or reserved (e.g. 127.0.0.2/32 for tests); logged at start. Empty by default. Wide ranges need SCOUT_FETCH_ALLOW_WIDE_CIDRS.',
  ),
  fetchAllowWideCidrs: s(
    'SCOUT_FETCH_ALLOW_WIDE_CIDRS',
    bool,
    'false',
    'Acknowledges SCOUT_FETCH_ALLOW_CIDRS ranges wider than an IPv4 /8 or an IPv6 /16 (or IPv6 forms of such IPv4 ranges, e.g. ::ffff:0:0/96); without it they stop the start.',
  ),
  fetchTimeoutMs: s(
    'SCOUT_FETCH_TIMEOUT_MS',
    int(100, 60_000),
    '10000',
    'One deadline for a whole fetch: DNS, connect, redirects, body and extraction (504 past it).',
  ),
  ...fetchCapacitySettings,
  ...fetchSettings,
  searchProviders: s(
    'SCOUT_SEARCH_PROVIDERS',
    list,
    DEFAULT_SEARCH_PROVIDERS.join(','),
    'Search providers, in order (the failover order; the order ties keep in fusion). The default searches the web without keys: two engines, Wikipedia and the local index, fused.',
  ),
  ...providerSettings,
} as const;

export const settingsAfterProviders = {
  ...sponsoredSettings,
  ...compatSettings,
  ...mcpSettings,
} as const;

/** Every setting of the config room: what the rooms below the providers read (Config). */
export const settings = { ...settingsBeforeProviders, ...settingsAfterProviders } as const;

export type Settings = typeof settings;
export type Config = ValuesOf<Settings>;
