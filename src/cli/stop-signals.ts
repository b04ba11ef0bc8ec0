const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface StopSignals {
  /** Settles at the first SIGINT or SIGTERM. */
  received: Promise<NodeJS.Signals>;
  /** Gives the signals their default action back (once closed). */
  dispose(): void;
}

/**
 * Listens for SIGINT/SIGTERM from before the server starts (a signal during start-up closes
 * it once started, instead of killing it half open) until it has closed. Repeats are
 * ignored rather than fatal: Ctrl-C under `npm start` delivers SIGINT twice, once from the
 * terminal and once forwarded by npm, a few milliseconds apart, and the second must not
 * cut the graceful close short.
 */
export function listenForStop(): StopSignals {
  let resolve!: (signal: NodeJS.Signals) => void;
  const received = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const onSignal = (signal: NodeJS.Signals): void => resolve(signal);
  for (const s of SIGNALS) process.on(s, onSignal);
  return {
    received,
    dispose() {
      for (const s of SIGNALS) process.removeListener(s, onSignal);
    },
  };
}
