import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { loadScoutConfig } from '../scout-settings.ts';
import type { Campaign, CampaignReport } from '../schemas/campaign.ts';
import { createCampaignAdmin, type CampaignAdmin } from '../sponsored/campaign-admin.ts';
import { validateCampaignFile } from '../sponsored/campaign-validation.ts';
import { createLandingCheck, type LandingCheck } from '../sponsored/landing-check.ts';
import { openSponsoredStores } from '../store/create-stores.ts';
import { UsageError, type CliCommand, type CliIO } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

/** 1500000 → "1.50"; keeps the digits that matter, at least two decimals. */
export const formatMicros = (micros: number): string => (micros / 1e6).toFixed(6).replace(/0{1,4}$/, '');

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** Reads and checks a campaign file; prints every problem and returns undefined when it is not valid. */
async function loadCampaignFile(path: string, io: CliIO, landing: LandingCheck): Promise<unknown> {
  let text: string;
  try {
    text = path === '-' ? await readAll(io.stdin) : await readFile(path, 'utf8');
  } catch (e) {
    io.stderr.write(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    io.stderr.write(`${path} is not valid JSON: ${(e as Error).message}\n`);
    return undefined;
  }
  const v = validateCampaignFile(value, landing);
  if (v.ok) return value;
  io.stderr.write(
    `${path}: the campaign is invalid (${v.problems.length} problem${v.problems.length === 1 ? '' : 's'}); nothing was stored\n`,
  );
  for (const p of v.problems) io.stderr.write(`  - ${p}\n`);
  return undefined;
}

function printList(list: Campaign[], io: CliIO): void {
  if (list.length === 0) io.stdout.write('no campaigns\n');
  for (const c of list) {
    const cap = c.daily_cap_micros === null ? '' : `\tcap/day ${formatMicros(c.daily_cap_micros)}`;
    io.stdout.write(
      `${c.id}\t${c.status}\t${c.advertiser}\t${c.title}\tbid ${formatMicros(c.bid_micros)}\tbudget ${formatMicros(c.budget_micros)}${cap}\n`,
    );
  }
}

function printReport(report: CampaignReport, io: CliIO): void {
  io.stdout.write(`since ${report.since ?? 'the beginning'} (UTC)\n`);
  io.stdout.write(
    `${['id', 'status', 'advertiser', 'impressions', 'agent_reads', 'clicks', 'spend', 'read_rate', 'remaining'].join(
      '\t',
    )}\n`,
  );
  for (const r of report.campaigns) {
    const rate = `${(r.read_rate * 100).toFixed(1)}%`;
    io.stdout.write(
      `${[
        r.id,
        r.status,
        r.advertiser,
        r.impressions,
        r.agent_reads,
        r.clicks,
        formatMicros(r.spend_micros),
        rate,
        formatMicros(r.remaining_micros),
      ].join('\t')}\n`,
    );
  }
}

/** Each subcommand's flags (a flag of another subcommand is an unknown flag here) and whether it takes an id. */
const SUBCOMMANDS: Record<string, { flags: Record<string, 'string' | 'boolean'>; id: boolean }> = {
  create: { flags: { file: 'string', json: 'boolean' }, id: false },
  update: { flags: { file: 'string' }, id: true },
  list: { flags: { json: 'boolean' }, id: false },
  show: { flags: {}, id: true },
  pause: { flags: {}, id: true },
  resume: { flags: {}, id: true },
  delete: { flags: {}, id: true },
  report: { flags: { since: 'string', json: 'boolean' }, id: false },
};

type Parsed = { sub: string; id: string; flags: Record<string, string | boolean | undefined> };

/** Checks the arguments before any store opens, so bad usage never creates one. */
function parse(argv: string[]): Parsed {
  const [sub, ...rest] = argv;
  const spec = sub === undefined ? undefined : SUBCOMMANDS[sub];
  if (sub === undefined || spec === undefined) throw new UsageError(`unknown campaigns command "${sub ?? ''}"`);
  const { flags, positional } = parseFlags(rest, spec.flags);
  if (spec.id && !positional[0])
    throw new UsageError(`campaigns ${sub} needs the campaign id (see \`scout campaigns list\`)`);
  const extra = positional[spec.id ? 1 : 0];
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  if ('file' in spec.flags && typeof flags.file !== 'string') {
    throw new UsageError(`campaigns ${sub} needs --file <campaign.json> (or --file - for stdin)`);
  }
  return { sub, id: positional[0] ?? '', flags };
}

async function run(
  { sub, id, flags }: Parsed,
  admin: CampaignAdmin,
  landing: LandingCheck,
  io: CliIO,
): Promise<number> {
  switch (sub) {
    case 'create': {
      const value = await loadCampaignFile(flags.file as string, io, landing);
      if (value === undefined) return 1;
      const c = await admin.create(value);
      io.stdout.write(flags.json ? `${JSON.stringify(c)}\n` : `${c.id}\n`);
      return 0;
    }
    case 'update': {
      const value = await loadCampaignFile(flags.file as string, io, landing);
      if (value === undefined) return 1;
      await admin.replace(id, value);
      io.stdout.write(`updated ${id}\n`);
      return 0;
    }
    case 'list': {
      const list = await admin.list();
      if (flags.json) io.stdout.write(`${JSON.stringify(list)}\n`);
      else printList(list, io);
      return 0;
    }
    case 'show':
      io.stdout.write(`${JSON.stringify(await admin.get(id), null, 2)}\n`);
      return 0;
    case 'pause':
    case 'resume':
      await admin[sub](id);
      io.stdout.write(`${sub === 'pause' ? 'paused' : 'resumed'} ${id}\n`);
      return 0;
    case 'delete':
      await admin.delete(id);
      io.stdout.write(`deleted ${id}\n`);
      return 0;
    case 'report': {
      const report = await admin.report(typeof flags.since === 'string' ? flags.since : undefined);
      if (flags.json) io.stdout.write(`${JSON.stringify(report)}\n`);
      else printReport(report, io);
      return 0;
    }
    default:
      throw new UsageError(`unknown campaigns command "${sub}"`);
  }
}

/**
 * `scout campaigns …`: writes the store the running servers read (sponsored.db or PostgreSQL); their
 * keyword index picks changes up within a second (docs/sponsored.md).
 */
export const campaignsCommand: CliCommand = async (argv, io) => {
  const parsed = parse(argv);
  const config = loadScoutConfig(io.env);
  // Landing pages are judged as the server judges them: same address policy and allowlist.
  const landing = createLandingCheck({ allowCidrs: config.fetchAllowCidrs, timeoutMs: config.fetchTimeoutMs });
  // Only create may make the store: every other subcommand needs campaigns that exist.
  const stores = await openSponsoredStores(config, { mustExist: parsed.sub !== 'create' });
  try {
    return await run(
      parsed,
      createCampaignAdmin({ stores, landing, now: () => new Date(), onChange: () => undefined }),
      landing,
      io,
    );
  } finally {
    await stores.close();
  }
};
