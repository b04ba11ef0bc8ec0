import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { nonBlockingOutput } from '../../src/cli/non-blocking-output.ts';

/** A stdout whose reader takes nothing: every write stays pending. */
function stalled(): Writable {
  return new Writable({ highWaterMark: 1, write: () => undefined });
}

function harness(target: Writable, maxPendingBytes = 100) {
  const notices: string[] = [];
  const out = nonBlockingOutput(target, { name: 'stdout', notice: (l) => notices.push(l), maxPendingBytes });
  return { out, notices };
}

describe('nonBlockingOutput', () => {
  it('passes lines through while the reader keeps up', () => {
    let text = '';
    const { out, notices } = harness(new Writable({ write: (c, _e, cb) => ((text += c), cb()) }));
    out.write('one\n');
    out.write('two\n');
    expect(text).toBe('one\ntwo\n');
    expect(notices).toEqual([]);
  });

  it('drops lines once more than the bound waits, and says so once', () => {
    const target = stalled();
    const { out, notices } = harness(target);
    for (let i = 0; i < 50; i++) expect(out.write(`${'x'.repeat(20)}\n`)).toBe(true); // never asks its writer to wait
    expect(target.writableLength).toBeLessThanOrEqual(100 + 21);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^scout: stdout is not being read: log lines are dropped/);
  });

  it('drops everything after the reader is gone (EPIPE), and says so once', () => {
    const target = new Writable({
      write: (_c, _e, cb) => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    });
    const { out, notices } = harness(target);
    out.write('one\n');
    out.write('two\n');
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        out.write('three\n');
        expect(notices).toEqual(['scout: cannot write to stdout (EPIPE): log lines are dropped from now on\n']);
        resolve();
      }),
    );
  });

  it('never throws at its writer, even when the stream below does (a full disk)', () => {
    const target = Object.assign(new EventEmitter(), {
      writableLength: 0,
      destroyed: false,
      write() {
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    }) as unknown as Writable;
    const { out, notices } = harness(target);
    expect(() => out.write('one\n')).not.toThrow();
    expect(() => out.write('two\n')).not.toThrow();
    expect(notices).toEqual(['scout: cannot write to stdout (ENOSPC): log lines are dropped from now on\n']);
  });
});
