import { createSlots, type Release, type Slots } from './slots.ts';

/**
 * Politeness: at most `perHost` requests in flight to one host name at once, across every
 * fetch of the process; the others wait in line (their deadline still runs). Checked per
 * hop, so a redirect to another host waits for that host. The key is the URL's host name
 * (lower-cased by the URL parser), not the address: one site behind many addresses is still
 * one site, and unrelated sites sharing a CDN address are not held up by each other.
 *
 * The line is unbounded here because the fetch capacity in front of it already bounds how
 * many fetches can be waiting at all.
 */

export interface HostGate {
  /** Resolves once a request to `hostname` may start; rejects with `signal.reason` if it aborts first. */
  enter(hostname: string, signal: AbortSignal): Promise<Release>;
  /** Requests in flight to `hostname` (for tests and logs). */
  active(hostname: string): number;
  /** Host names with a request in flight or waiting (entries are dropped when idle). */
  readonly hosts: number;
}

export function createHostGate(perHost: number): HostGate {
  const hosts = new Map<string, Slots>();

  const forget = (hostname: string, slots: Slots) => {
    if (slots.active === 0 && slots.queued === 0 && hosts.get(hostname) === slots) hosts.delete(hostname);
  };

  return {
    async enter(hostname, signal) {
      let slots = hosts.get(hostname);
      if (slots === undefined) {
        slots = createSlots(perHost, Number.POSITIVE_INFINITY);
        hosts.set(hostname, slots);
      }
      const held = slots;
      let release: Release;
      try {
        // The queue is unbounded: acquire never answers undefined.
        release = await (held.acquire(signal) as Promise<Release>);
      } catch (err) {
        forget(hostname, held);
        throw err;
      }
      return () => {
        release();
        forget(hostname, held);
      };
    },
    active: (hostname) => hosts.get(hostname)?.active ?? 0,
    get hosts() {
      return hosts.size;
    },
  };
}
