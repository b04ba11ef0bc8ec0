import { searchLine } from '../config/provider-settings.ts';
import { openServerIndex } from '../index/open-index.ts';
import type { LocalIndexApi } from '../index/local-index-api.ts';
import { createProviders } from '../providers/create-providers.ts';
import { createLocalProvider } from '../providers/local.ts';
import { PROBE_QUERY, probeProviders, type ProbeResult } from '../providers/probe-providers.ts';
import { scoutUserAgent } from '../providers/user-agent.ts';
import { loadScoutConfig } from '../scout-settings.ts';
import { ensureDataDir } from '../startup-errors.ts';
import { openIndexSource } from '../store/create-stores.ts';
import { UsageError, type CliCommand } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

const LABEL: Record<ProbeResult['health'], string> = {
  ok: 'ok',
  blocked: 'blocked',
  parse_failed: 'parse failed',
  unreachable: 'unreachable',
  error: 'error',
};

const SILENT = { info: () => undefined, warn: () => undefined };

function table(rows: readonly ProbeResult[]): string {
  const width = Math.max(8, ...rows.map((r) => r.provider.length));
  return rows
    .map((r) => {
      const count = r.health === 'ok' ? `${r.results} results` : '-';
      const line = `${r.provider.padEnd(width)}  ${LABEL[r.health].padEnd(12)}  ${count.padEnd(10)}  ${String(r.ms).padStart(6)} ms`;
      return r.detail ? `${line}  ${r.detail}\n` : `${line}\n`;
    })
    .join('');
}

/**
 * `scout providers check [--query <text>] [--json]`: one probe query through each provider of
 * SCOUT_SEARCH_PROVIDERS, at once, each within SCOUT_PROVIDER_TIMEOUT_MS; prints per provider
 * ok / blocked / parse failed / unreachable / error with its latency. Exit 0 when every one
 * answered, 1 otherwise, so a deploy or a cron job can use it as a check.
 */
export const providersCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub !== 'check') throw new UsageError(`unknown providers command "${sub ?? ''}"`);
  const { flags, positional } = parseFlags(rest, { query: 'string', json: 'boolean' });
  if (positional[0] !== undefined) throw new UsageError(`unexpected argument ${positional[0]}`);
  const query = typeof flags.query === 'string' ? flags.query.trim() : PROBE_QUERY;
  if (query === '') throw new UsageError('--query needs a non-empty text');
  const config = loadScoutConfig(io.env);
  const wantsLocal = config.searchProviders.some((n) => n.trim().toLowerCase() === 'local');
  let index: LocalIndexApi | undefined;
  try {
    if (wantsLocal) {
      if (config.databaseUrl === undefined) ensureDataDir(config.dataDir);
      index = await openServerIndex(await openIndexSource(config, { mustExist: false }), config, SILENT);
    }
    const providers = createProviders(config, index ? { local: createLocalProvider(index) } : {}, {
      userAgent: scoutUserAgent(config.contact),
    });
    const results = await probeProviders(providers, query, config.providerTimeoutMs);
    if (flags.json) io.stdout.write(`${JSON.stringify(results)}\n`);
    else {
      io.stdout.write(`${searchLine(config.searchProviders, config.searchMode)}; probe query "${query}"\n`);
      io.stdout.write(table(results));
    }
    return results.every((r) => r.health === 'ok') ? 0 : 1;
  } finally {
    await index?.close();
  }
};
