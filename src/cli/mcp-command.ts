import { configWarnings } from '../config/config-warnings.ts';
import { ConfigError } from '../config/load-config.ts';
import { searchesWeb } from '../config/provider-settings.ts';
import { loadScoutConfig, type ScoutConfig } from '../scout-settings.ts';
import { createScout, type Scout } from '../compose.ts';
import { defaultTools } from '../compose/assemble-mcp.ts';
import { DOCS_DIR } from '../main.ts';
import { httpBackend } from '../mcp/http-backend.ts';
import { serveStdio } from '../mcp/stdio-server.ts';
import { localCaller, serviceBackend, type ToolBackend } from '../mcp/tool-backend.ts';
import { createToolCalls } from '../mcp/tool-calls.ts';
import { selectTools } from '../mcp/tool-selection.ts';
import { createToolset } from '../mcp/toolset.ts';
import { ensureDataDir } from '../startup-errors.ts';
import { UsageError, type CliCommand, type CliIO } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';
import { reserveStdout } from './protocol-stdout.ts';
import { listenForStop } from './stop-signals.ts';

const NO_KEY =
  'SCOUT_API_KEY is required: `scout mcp` charges its searches to an API key (create one with `npx scout keys create --name desktop`)';

/** In-process: Scout on SCOUT_DATA_DIR, not listening; the key must be one of its own. */
async function localBackend(
  config: ScoutConfig,
  apiKey: string,
  io: CliIO,
): Promise<{ backend: ToolBackend; scout: Scout }> {
  ensureDataDir(config.dataDir);
  const scout = await createScout(config, { docsDir: DOCS_DIR, logStream: io.stderr });
  try {
    // A wrong key stops the start with one line, rather than failing every tool call later.
    await scout.keys.authenticate(apiKey);
  } catch (e) {
    await scout.close().catch(() => undefined);
    throw e;
  }
  const backend = serviceBackend(
    {
      search: scout.search,
      fetch: scout.fetch,
      map: scout.map,
      crawl: scout.crawl,
      rateLimiter: scout.stores.rateLimiter,
    },
    localCaller(scout.keys, apiKey),
  );
  return { backend, scout };
}

/**
 * `scout mcp`: an MCP server on stdin/stdout for desktop clients (docs/mcp.md). With
 * SCOUT_URL its tools call that Scout's HTTP API; without, Scout runs in this process on
 * SCOUT_DATA_DIR. Either way every call is charged to SCOUT_API_KEY. Only protocol messages
 * go to stdout; logs and warnings go to stderr. Serves until stdin closes (the client quits)
 * or SIGINT/SIGTERM (exit 0), or until it cannot read stdin any more, such as a line over
 * 10 MiB (exit 1, the reason on stderr). `--tools <list>` (or `all`) selects the tools offered,
 * SCOUT_MCP_TOOLS's by default; an unknown name stops it at once (exit 1, the names there are).
 */
export const mcpCommand: CliCommand = async (argv, io) => {
  const { flags, positional } = parseFlags(argv, { tools: 'string' });
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
  const config = loadScoutConfig(io.env);
  const tools = typeof flags.tools === 'string' ? selectTools(flags.tools, '--tools') : defaultTools(config.mcpTools);
  const apiKey = config.scoutApiKey;
  if (apiKey === undefined) throw new ConfigError(NO_KEY);
  io.stderr.on('error', () => undefined);
  for (const warning of configWarnings(config)) io.stderr.write(`scout: warning: ${warning}\n`);
  const stdout = reserveStdout(io.stdout, io.stderr);
  const stop = listenForStop();
  let scout: Scout | undefined;
  try {
    let backend: ToolBackend;
    if (config.scoutUrl !== undefined) backend = httpBackend({ baseUrl: config.scoutUrl, apiKey });
    else ({ backend, scout } = await localBackend(config, apiKey, io));
    // In front of another Scout (SCOUT_URL) what it searches is that Scout's business: the web.
    const scope = config.scoutUrl === undefined && !searchesWeb(config.searchProviders) ? 'local' : 'web';
    const toolset = createToolset(tools, scope, config.mcpMaxResultTokens);
    const callTool = createToolCalls(backend, {
      toolset,
      onUnexpected: (err) =>
        io.stderr.write(
          `scout mcp: tool call failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
        ),
    });
    const session = await serveStdio(callTool, io.stdin, stdout.protocol, toolset);
    const stopped = await Promise.race([session.ended, stop.received.then(() => undefined)]);
    await session.close();
    if (stopped === undefined) return 0;
    io.stderr.write(`scout mcp: ${stopped}\n`);
    return 1;
  } finally {
    stop.dispose();
    await scout?.close();
    stdout.release();
  }
};
