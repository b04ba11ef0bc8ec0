import { Type, type Static } from '@sinclair/typebox';
import { CampaignReportRow } from './campaign.ts';
import { Nullable } from './nullable.ts';

/**
 * The operator dashboard's shapes (GET /admin/v1/overview, the keys of /admin/v1/keys),
 * read by the page at /admin (docs/operations.md, "The dashboard"). Not in /openapi.json,
 * which describes the agent-facing API.
 */
const Count = Type.Integer({ minimum: 0 });
const Ms = Nullable(Type.Number({ minimum: 0 }));

export const AdminBudget = Type.Object(
  {
    period: Type.String({ description: 'The month (UTC), YYYY-MM.' }),
    total: Count,
    used: Count,
    left: Count,
    resets_at: Type.String(),
    projected_used: Count,
    projected_exhausted_at: Nullable(
      Type.String({ description: "When the budget runs out at this month's pace; null when it lasts the month." }),
    ),
  },
  { additionalProperties: false },
);

const KindLatency = Type.Object({ p50_ms: Ms, p95_ms: Ms }, { additionalProperties: false });

export const TrafficBucket = Type.Object(
  {
    start: Type.String(),
    ok: Count,
    client_error: Count,
    rate_limited: Count,
    server_error: Count,
    p50_ms: Ms,
    p95_ms: Ms,
    latency: Type.Object(
      { search: KindLatency, fetch: KindLatency, mcp: KindLatency, map: KindLatency, crawl: KindLatency },
      {
        additionalProperties: false,
        description:
          "Latency of searches (POST and GET /v1/search and the compat searches), page reads (/v1/fetch, /v1/extract and the compat extract and scrape), MCP requests (/mcp), site maps (/v1/map and the compat maps) and crawls (/v1/crawl and the compat crawls; a crawl job's status reads are not crawls) apart; p50_ms and p95_ms above are of every agent request.",
      },
    ),
  },
  { additionalProperties: false },
);

export const TrafficSeries = Type.Object(
  { bucket_seconds: Type.Integer(), buckets: Type.Array(TrafficBucket) },
  { additionalProperties: false },
);

export const AdminKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    created_at: Type.String(),
    revoked_at: Nullable(Type.String()),
    requests: Count,
    refusals: Count,
    last_used_at: Nullable(Type.String()),
  },
  { title: 'AdminKey', additionalProperties: false },
);
export type AdminKey = Static<typeof AdminKey>;

/** The anonymous tier's requests, every client address together (never one entry per address). */
export const AdminAnonymousUsage = Type.Object(
  { requests: Count, refusals: Count, last_used_at: Nullable(Type.String()) },
  { title: 'AdminAnonymousUsage', additionalProperties: false },
);
export type AdminAnonymousUsage = Static<typeof AdminAnonymousUsage>;

export const AdminKeyList = Type.Object({ keys: Type.Array(AdminKey) }, { additionalProperties: false });

export const ProviderHealth = Type.Object(
  {
    name: Type.String(),
    breaker: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
    /** How its last call ended (`scout providers check`'s words); `unknown` before the first. */
    health: Type.Union([
      Type.Literal('unknown'),
      Type.Literal('ok'),
      Type.Literal('blocked'),
      Type.Literal('parse_failed'),
      Type.Literal('unreachable'),
      Type.Literal('error'),
    ]),
    last_call_at: Type.Union([Type.String(), Type.Null()]),
    /** Why its last call failed (caller-safe text), null when it answered. */
    last_error: Type.Union([Type.String(), Type.Null()]),
    /** Searches waiting for their turn in its pacing queue (0 for providers not paced). */
    waiting: Count,
    requests: Count,
    errors: Count,
    timeouts: Count,
    p50_ms: Ms,
    p95_ms: Ms,
  },
  { additionalProperties: false },
);

export const RefusedDomain = Type.Object(
  {
    domain: Type.String(),
    count: Count,
    outcomes: Type.Record(Type.String(), Count),
    last_at: Type.String(),
  },
  { additionalProperties: false },
);

export const AdminOverview = Type.Object(
  {
    generated_at: Type.String(),
    started_at: Type.String({
      description: "When this process started: traffic, providers and fetches are this process's.",
    }),
    storage: Type.String(),
    budget: Nullable(AdminBudget),
    traffic: Type.Object({ hour: TrafficSeries, day: TrafficSeries }, { additionalProperties: false }),
    keys: Type.Array(AdminKey),
    /** Requests without a key (the anonymous tier, SCOUT_ANONYMOUS_RPM); null when there has been none. */
    anonymous: Nullable(AdminAnonymousUsage),
    providers: Type.Array(ProviderHealth),
    fetch: Type.Object(
      {
        outcomes: Type.Record(Type.String(), Count, { description: 'Fetches in the last 24 hours by outcome.' }),
        refused_domains: Type.Array(RefusedDomain, { description: 'Hosts most often refused or blocked since start.' }),
      },
      { additionalProperties: false },
    ),
    index: Type.Object(
      {
        state: Type.String(),
        documents: Count,
        domains: Count,
        bytes: Count,
        text_bytes: Count,
        last_import_at: Nullable(Type.String()),
      },
      { additionalProperties: false },
    ),
    campaigns: Type.Array(CampaignReportRow),
  },
  { title: 'AdminOverview', additionalProperties: false },
);
export type AdminOverview = Static<typeof AdminOverview>;
