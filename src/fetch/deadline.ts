import { DomainError } from '../domain/errors.ts';

/**
 * One deadline for a whole operation. `signal` aborts with a DomainError('timeout') as its
 * reason (undici destroys the socket of an aborted request, body included); `race` bounds
 * work that takes no signal; `check` catches synchronous work that overran the timer.
 */
export interface Deadline {
  signal: AbortSignal;
  race<T>(work: Promise<T>): Promise<T>;
  /** Throws the timeout error if the deadline has passed, even if the timer has not fired yet. */
  check(): void;
  clear(): void;
}

export function startDeadline(ms: number, message: string, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  const error = new DomainError('timeout', message);
  const endsAt = performance.now() + ms;
  const timer = setTimeout(() => controller.abort(error), ms);
  // A caller that gives up (the advanced search stage past its own deadline) ends the work
  // and frees the connection the same way the deadline does.
  if (outer?.aborted) controller.abort(error);
  else outer?.addEventListener('abort', () => controller.abort(error), { once: true });
  const expired = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(error), { once: true });
  });
  expired.catch(() => {});
  return {
    signal: controller.signal,
    race: (work) => {
      work.catch(() => {}); // a late failure after the deadline is nobody's business
      return Promise.race([work, expired]);
    },
    check: () => {
      if (controller.signal.aborted || performance.now() >= endsAt) {
        controller.abort(error);
        throw error;
      }
    },
    clear: () => clearTimeout(timer),
  };
}
