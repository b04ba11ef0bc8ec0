import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.ts';
import { rule } from './rule.ts';

/**
 * The campaign file (docs/sponsored.md) and the admin API's shapes. The file schema is
 * checked with every problem listed (src/sponsored/campaign-validation.ts), so each
 * property carries the sentence a problem is reported with.
 */
export const CAMPAIGN_LIMITS = {
  advertiser: 100,
  title: 200,
  url: 2048,
  content: 1000,
  keyword: 100,
  keywords: 500,
  disclosure: 200,
  code: 100,
  benefit: 300,
  maxBidMicros: 1_000_000_000_000,
  maxBudgetMicros: 1_000_000_000_000_000,
} as const;

const DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const L = CAMPAIGN_LIMITS;

const text = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, description, ...rule(`must be a string of 1 to ${max} characters`) });
const micros = (max: number, description: string) =>
  Type.Integer({ minimum: 1, maximum: max, description, ...rule(`must be a whole number of micros from 1 to ${max}`) });
const phrases = (min: number, description: string) =>
  Type.Array(
    Type.String({ minLength: 1, maxLength: L.keyword, ...rule(`must be a phrase of 1 to ${L.keyword} characters`) }),
    {
      minItems: min,
      maxItems: L.keywords,
      description,
      ...rule(`must be an array of ${min} to ${L.keywords} phrases`),
    },
  );
const day = (description: string) => Type.String({ pattern: DATE, description, ...rule('must be a date YYYY-MM-DD') });

export const CampaignIncentive = Type.Object(
  {
    kind: Type.Union(
      [Type.Literal('credit'), Type.Literal('code'), Type.Literal('trial')],
      rule('must be one of credit, code, trial'),
    ),
    code: Type.Optional(text(L.code, 'The code to redeem; required when kind is code.')),
    benefit: text(L.benefit, 'What the agent or its user gets, in a sentence.'),
  },
  {
    additionalProperties: false,
    description: 'SPEC 2.4 Incentive shown with the ad.',
    ...rule('must be an object with kind, benefit and optional code'),
  },
);

const fileProperties = {
  advertiser: text(L.advertiser, 'Who pays; shown in the default disclosure.'),
  title: text(L.title, 'Title of the sponsored entry.'),
  url: Type.String({
    minLength: 1,
    maxLength: L.url,
    description: 'Landing page (http or https).',
    ...rule(`must be an http(s) URL of at most ${L.url} characters`),
  }),
  content: text(L.content, "Ad text, shown as the entry's content."),
  keywords: phrases(1, 'Words or phrases; the ad is eligible when one occurs in the query.'),
  negative_keywords: Type.Optional(phrases(0, 'Words or phrases that keep the ad off a query.')),
  countries: Type.Optional(
    Type.Array(
      Type.String({ pattern: '^[A-Za-z]{2}$', ...rule('must be an ISO 3166-1 alpha-2 country code such as US') }),
      {
        maxItems: 249,
        description: 'ISO 3166-1 alpha-2 codes; when given, the ad only shows to requests with one of these countries.',
        ...rule('must be an array of ISO 3166-1 alpha-2 country codes'),
      },
    ),
  ),
  bid_micros: micros(L.maxBidMicros, 'Price of one agent read, in millionths of the currency unit.'),
  budget_micros: micros(L.maxBudgetMicros, 'Total budget, in millionths of the currency unit.'),
  daily_cap_micros: Type.Optional(micros(L.maxBudgetMicros, 'Most spent per UTC day.')),
  start_date: Type.Optional(day('First UTC day the ad may show (inclusive).')),
  end_date: Type.Optional(day('Last UTC day the ad may show (inclusive).')),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('paused')], {
      description: 'Default active.',
      ...rule('must be one of active, paused'),
    }),
  ),
  disclosure: Type.Optional(text(L.disclosure, 'Label shown with the ad; default "Sponsored · <advertiser>".')),
  incentive: Type.Optional(CampaignIncentive),
};

/** One campaign file: a JSON object. Unknown fields are an error. */
export const CampaignFile = Type.Object(fileProperties, { title: 'CampaignFile', additionalProperties: false });
export type CampaignFile = Static<typeof CampaignFile>;

/** A stored campaign as the admin API shows it: the file with its defaults applied. */
export const Campaign = Type.Object(
  {
    id: Type.String(),
    advertiser: Type.String(),
    title: Type.String(),
    url: Type.String(),
    content: Type.String(),
    keywords: Type.Array(Type.String()),
    negative_keywords: Type.Array(Type.String()),
    countries: Type.Array(Type.String()),
    bid_micros: Type.Integer(),
    budget_micros: Type.Integer(),
    daily_cap_micros: Nullable(Type.Integer()),
    start_date: Nullable(Type.String()),
    end_date: Nullable(Type.String()),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
    disclosure: Type.String(),
    incentive: Nullable(CampaignIncentive),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { title: 'Campaign', additionalProperties: false },
);
export type Campaign = Static<typeof Campaign>;

export const CampaignList = Type.Object(
  { campaigns: Type.Array(Campaign) },
  { title: 'CampaignList', additionalProperties: false },
);
export type CampaignList = Static<typeof CampaignList>;

export const CampaignReportRow = Type.Object(
  {
    id: Type.String(),
    advertiser: Type.String(),
    title: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
    impressions: Type.Integer(),
    agent_reads: Type.Integer({ description: 'Distinct sponsored results read through POST /v1/fetch.' }),
    clicks: Type.Integer({ description: 'Follows of the click URL (GET /v1/r/<rec_id>).' }),
    spend_micros: Type.Integer(),
    read_rate: Type.Number({ description: 'agent_reads / impressions (0 without impressions).' }),
    budget_micros: Type.Integer(),
    remaining_micros: Type.Integer({ description: 'Budget left, all time.' }),
  },
  { title: 'CampaignReportRow', additionalProperties: false },
);
export type CampaignReportRow = Static<typeof CampaignReportRow>;

export const CampaignReport = Type.Object(
  { since: Nullable(Type.String()), campaigns: Type.Array(CampaignReportRow) },
  { title: 'CampaignReport', additionalProperties: false },
);
export type CampaignReport = Static<typeof CampaignReport>;

export const ReportQuery = Type.Object(
  { since: Type.Optional(Type.String({ description: 'Count events from this UTC day on (YYYY-MM-DD).' })) },
  { additionalProperties: false },
);

export const CampaignIdParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
