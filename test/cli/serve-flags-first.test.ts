import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/cli/cli-io.ts';

// `scout serve --bad-flag` must fail on its flags before the server's modules load (they
// took seconds: the whole HTTP, fetch and index stack). Loading main.ts is what is watched.
const loaded = vi.hoisted(() => ({ main: false }));
vi.mock('../../src/main.ts', () => {
  loaded.main = true;
  return { startServer: () => Promise.reject(new Error('startServer must not run in this test')) };
});

describe('scout serve with a bad flag', () => {
  it('is refused before the server code is loaded', async () => {
    const { serveCommand } = await import('../../src/cli/serve-command.ts');
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    await expect(serveCommand(['--bad-flag'], io as never)).rejects.toThrow(UsageError);
    await expect(serveCommand(['extra'], io as never)).rejects.toThrow('unexpected argument extra');
    expect(loaded.main).toBe(false);
  });
});
