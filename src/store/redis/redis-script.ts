import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface LuaScript {
  readonly lua: string;
  readonly sha: string;
}

export const luaScript = (lua: string): LuaScript => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });

/**
 * EVALSHA (the script's 40-character digest, not its text, on every call), and EVAL when the
 * server does not know the script (first use, a restarted Redis, SCRIPT FLUSH): EVAL also
 * caches it there, so the next call is an EVALSHA again.
 */
export async function runScript(
  client: Redis,
  script: LuaScript,
  keys: string[],
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (e) {
    if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
    return client.eval(script.lua, keys.length, ...keys, ...args);
  }
}
