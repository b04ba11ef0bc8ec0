import { accessSync, constants, mkdirSync } from 'node:fs';
import { ConfigError } from './config/load-config.ts';

// Start-up failures the operator fixes by changing a setting: said in one line naming the
// setting (a ConfigError, which `scout` prints as `scout: <message>` and exits 1), not as
// Node's stack trace.

const REASONS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'no such address on this machine',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'host name lookup failed',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'it is a file, not a folder',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'path too long',
};

const reasonOf = (e: NodeJS.ErrnoException): string => (e.code && REASONS[e.code]) ?? e.code ?? e.message;

/** Creates SCOUT_DATA_DIR if needed and checks that Scout may write there. */
export function ensureDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    // Root passes this whatever the mode bits say; a read-only mount still fails it.
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new ConfigError(`cannot use SCOUT_DATA_DIR ${dir}: ${reasonOf(e as NodeJS.ErrnoException)}`, { cause: e });
  }
}

/** The one-line form of a failed listen (port taken, address not local…); other errors unchanged. */
export function listenError(e: unknown, host: string, port: number): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || code.startsWith('FST_')) return e; // Fastify's own, not the socket's
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new ConfigError(`cannot listen on ${address}: ${reasonOf(e as NodeJS.ErrnoException)} (set PORT or HOST)`, {
    cause: e,
  });
}
