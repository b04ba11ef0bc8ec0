import { loadConfig } from '../config/load-config.ts';
import { createFetchService } from '../domain/fetch-service.ts';
import { extractDocument } from '../extract/extract-document.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import { UsageError, type CliCommand } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

/** `scout fetch <url> [--max-chars N] [--json]`: the /v1/fetch pipeline from a terminal. */
export const fetchCommand: CliCommand = async (argv, io) => {
  const { flags, positional } = parseFlags(argv, { 'max-chars': 'string', json: 'boolean' });
  const url = positional[0];
  if (!url) throw new UsageError('name the URL to fetch');
  if (positional.length > 1) throw new UsageError(`unexpected argument ${positional[1]}`);
  const maxChars = flags['max-chars'] === undefined ? FETCH_LIMITS.maxChars.max : Number(flags['max-chars']);
  if (!Number.isInteger(maxChars) || maxChars < FETCH_LIMITS.maxChars.min || maxChars > FETCH_LIMITS.maxChars.max) {
    throw new UsageError('--max-chars must be an integer from 500 to 200000');
  }
  const config = loadConfig(io.env);
  const service = createFetchService({ allowCidrs: config.fetchAllowCidrs, timeoutMs: config.fetchTimeoutMs, extract: extractDocument });
  try {
    const out = await service.fetch({ url, maxChars });
    io.stdout.write(flags.json ? `${JSON.stringify(out)}\n` : `${out.content}\n`);
    return 0;
  } finally {
    await service.close();
  }
};
