import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { loadConfig } from '../config/load-config.ts';
import type { Campaign, CampaignReport } from '../schemas/campaign.ts';
import { createCampaignAdmin, type CampaignAdmin } from '../sponsored/campaign-admin.ts';
import { validateCampaignFile } from '../sponsored/campaign-validation.ts';
import { openSponsoredStore } from '../store/sqlite/open-sponsored-store.ts';
import { UsageError, type CliCommand, type CliIO } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

const USAGE = `usage:
  scout campaigns create --file <campaign.json|->     validate and store a campaign; prints its id
  scout campaigns update <id> --file <campaign.json|-> replace a campaign's definition (spend is kept)
  scout campaigns list [--json]                       campaigns with bid, budget and status
  scout campaigns show <id>                           one campaign as JSON
  scout campaigns pause <id> | resume <id> | delete <id>
  scout campaigns report [--since YYYY-MM-DD] [--json] impressions, agent reads, clicks, spend, read rate
Amounts are in micros (millionths of the currency unit); docs/sponsored.md has the file format.`;

/** 1500000 → "1.50"; keeps the digits that matter, at least two decimals. */
export const formatMicros = (micros: number): string => (micros / 1e6).toFixed(6).replace(/0{1,4}$/, '');

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** Reads and checks a campaign file; prints every problem and returns undefined when it is not valid. */
async function loadCampaignFile(path: string, io: CliIO): Promise<unknown> {
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
  const v = validateCampaignFile(value);
  if (v.ok) return value;
  io.stderr.write(`${path}: the campaign is invalid (${v.problems.length} problem${v.problems.length === 1 ? '' : 's'}); nothing was stored\n`);
  for (const p of v.problems) io.stderr.write(`  - ${p}\n`);
  return undefined;
}

function printList(list: Campaign[], io: CliIO): void {
  if (list.length === 0) io.stdout.write('no campaigns\n');
  for (const c of list) {
    const cap = c.daily_cap_micros === null ? '' : `\tcap/day ${formatMicros(c.daily_cap_micros)}`;
    io.stdout.write(`${c.id}\t${c.status}\t${c.advertiser}\t${c.title}\tbid ${formatMicros(c.bid_micros)}\tbudget ${formatMicros(c.budget_micros)}${cap}\n`);
  }
}

function printReport(report: CampaignReport, io: CliIO): void {
  io.stdout.write(`since ${report.since ?? 'the beginning'} (UTC)\n`);
  io.stdout.write(['id', 'status', 'advertiser', 'impressions', 'agent_reads', 'clicks', 'spend', 'read_rate', 'remaining'].join('\t') + '\n');
  for (const r of report.campaigns) {
    const rate = `${(r.read_rate * 100).toFixed(1)}%`;
    io.stdout.write(
      [r.id, r.status, r.advertiser, r.impressions, r.agent_reads, r.clicks, formatMicros(r.spend_micros), rate, formatMicros(r.remaining_micros)].join('\t') + '\n',
    );
  }
}

const idOf = (positional: string[], sub: string): string => {
  const id = positional[0];
  if (!id) throw new UsageError(`campaigns ${sub} needs the campaign id (see \`scout campaigns list\`)`);
  return id;
};

async function run(sub: string | undefined, rest: string[], admin: CampaignAdmin, io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(rest, { file: 'string', json: 'boolean', since: 'string' });
  const file = async () => {
    if (typeof flags.file !== 'string') throw new UsageError(`campaigns ${sub} needs --file <campaign.json> (or --file - for stdin)`);
    return loadCampaignFile(flags.file, io);
  };
  switch (sub) {
    case 'create': {
      const value = await file();
      if (value === undefined) return 1;
      const c = await admin.create(value);
      io.stdout.write(flags.json ? `${JSON.stringify(c)}\n` : `${c.id}\n`);
      return 0;
    }
    case 'update': {
      const id = idOf(positional, sub);
      const value = await file();
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
      io.stdout.write(`${JSON.stringify(await admin.get(idOf(positional, sub)), null, 2)}\n`);
      return 0;
    case 'pause':
    case 'resume':
      await admin[sub](idOf(positional, sub));
      io.stdout.write(`${sub === 'pause' ? 'paused' : 'resumed'} ${positional[0]}\n`);
      return 0;
    case 'delete':
      await admin.delete(idOf(positional, sub));
      io.stdout.write(`deleted ${positional[0]}\n`);
      return 0;
    case 'report': {
      const report = await admin.report(typeof flags.since === 'string' ? flags.since : undefined);
      if (flags.json) io.stdout.write(`${JSON.stringify(report)}\n`);
      else printReport(report, io);
      return 0;
    }
    default:
      throw new UsageError(USAGE);
  }
}

/**
 * `scout campaigns …`: writes sponsored.db, the store a running server reads; the server's
 * keyword index picks changes up within a second (docs/sponsored.md).
 */
export const campaignsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === 'help') throw new UsageError(USAGE);
  const stores = openSponsoredStore(loadConfig(io.env).dataDir);
  try {
    return await run(sub, rest, createCampaignAdmin({ stores, now: () => new Date(), onChange: () => undefined }), io);
  } finally {
    await stores.close();
  }
};
