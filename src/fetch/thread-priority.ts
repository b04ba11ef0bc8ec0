import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the calling thread's CPU priority to `nice` (1-19), so extraction workers take the
 * CPU the event loop leaves: on a machine with as many workers as cores, eight hostile pages
 * otherwise share the cores evenly with the thread that answers /healthz and searches
 * (bench/fetch.ts measured search p99 at 3.2x idle; niced, see docs/operations.md).
 * Linux only: a thread's id is a valid pid for setpriority(2), which then applies to that
 * one thread; Node's os.setPriority passes the id through. The id is read from
 * /proc/thread-self. Elsewhere, or with nice 0, nothing changes. Returns whether it did.
 */
export function lowerThreadPriority(nice: number): boolean {
  if (nice <= 0) return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
