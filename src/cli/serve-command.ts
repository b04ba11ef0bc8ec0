import { startServer } from '../main.ts';
import type { CliCommand } from './cli-io.ts';

/** `scout serve` (what `npm start` runs): serves until SIGINT/SIGTERM, then closes gracefully. */
export const serveCommand: CliCommand = async (_argv, io) => {
  const scout = await startServer(io.env, io.stdout);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await scout.close();
  return 0;
};
