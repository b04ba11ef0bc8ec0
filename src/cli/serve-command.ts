import type { Writable } from 'node:stream';
import type { StartOptions } from '../main.ts';
import type { CliCommand, CliIO } from './cli-io.ts';
import { nonBlockingOutput } from './non-blocking-output.ts';
import { listenForStop } from './stop-signals.ts';
import { parseNoArguments } from './parse-flags.ts';
import { configWarnings } from '../config/config-warnings.ts';
import { loadScoutConfig } from '../scout-settings.ts';

const isTerminal = (s: Writable): boolean => (s as { isTTY?: boolean }).isTTY === true;

/**
 * Where a person sees the first API key: stdout when it is a terminal (through `out`, in
 * order with the rest), else stderr when that is one (`scout serve | shipper` typed in a
 * terminal); otherwise nobody is watching and the key goes to a file.
 */
function terminalOf(io: CliIO, out: Writable): StartOptions {
  if (isTerminal(io.stdout)) return { terminal: out };
  if (isTerminal(io.stderr)) return { terminal: io.stderr };
  return {};
}

/** `scout serve` (what `npm start` runs): serves until SIGINT/SIGTERM, then closes gracefully. */
export const serveCommand: CliCommand = async (argv, io) => {
  // --help never gets here (runCli answers it); anything else on the line is a mistake, not ignored.
  parseNoArguments(argv);
  // A closed stderr (its reader gone) must not crash the server: what would go there is lost.
  io.stderr.on('error', () => undefined);
  // Accepted but risky settings, one line each, before the server starts.
  for (const warning of configWarnings(loadScoutConfig(io.env))) io.stderr.write(`scout: warning: ${warning}\n`);
  // Logs must never hold up serving: a dead or stalled stdout reader costs log lines only.
  const out = nonBlockingOutput(io.stdout, { name: 'stdout', notice: (line) => io.stderr.write(line) });
  const stop = listenForStop();
  try {
    // Loaded only now: the server's modules take seconds to load, and a mistyped flag or a
    // bad setting must be refused without waiting for them.
    const { startServer } = await import('../main.ts');
    const scout = await startServer(io.env, out, terminalOf(io, out));
    await stop.received;
    await scout.close();
  } finally {
    stop.dispose();
  }
  return 0;
};
