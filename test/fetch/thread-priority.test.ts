import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createExtractPool } from '../../src/fetch/extract-pool.ts';
import { lowerThreadPriority } from '../../src/fetch/thread-priority.ts';

/** Nice values of this process's threads, from /proc (field 19 of each task's stat). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe.runIf(existsSync('/proc/thread-self'))('extraction workers below the event loop (Linux)', () => {
  it('the pool starts its workers at SCOUT_FETCH_WORKER_NICE and leaves the main thread as it was', async () => {
    const before = getPriority(0);
    const pool = createExtractPool({ workers: 2, heapMb: 128, nice: 13 });
    try {
      await pool.ready();
      expect(threadNices().filter((n) => n === 13)).toHaveLength(2);
      expect(getPriority(0)).toBe(before);
    } finally {
      await pool.close();
    }
  });

  it('nice 0 changes nothing', () => {
    expect(lowerThreadPriority(0)).toBe(false);
  });
});
