import { loadScoutConfig } from '../scout-settings.ts';
import { createFetchService } from '../fetch/fetch-service.ts';
import { createExtractPool } from '../fetch/extract-pool.ts';
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
  const config = loadScoutConfig(io.env);
  // One page, one worker: a hostile page ends at the deadline or the heap limit, as in the server.
  const pool = createExtractPool({ workers: 1, heapMb: config.fetchWorkerHeapMb });
  const service = createFetchService({
    allowCidrs: config.fetchAllowCidrs,
    timeoutMs: config.fetchTimeoutMs,
    extract: pool.extract,
  });
  try {
    await pool.ready();
    const out = await service.fetch({ url, maxChars });
    io.stdout.write(flags.json ? `${JSON.stringify(out)}\n` : `${out.content}\n`);
    return 0;
  } finally {
    await service.close();
    await pool.close();
  }
};
