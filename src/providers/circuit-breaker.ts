/**
 * Keeps a repeatedly failing provider out for a cool-down, in the spirit of SearXNG's engine
 * suspension: after `threshold` consecutive failures the breaker opens and calls are
 * skipped; after `cooldownMs` one trial call is let through (half-open); its success closes
 * the breaker, its failure opens it for another cool-down. The clock is injected for tests.
 */

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerOptions {
  /** Consecutive failures that open the breaker. */
  threshold: number;
  cooldownMs: number;
  now?: () => number;
}

export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private opened = false;
  private trialInFlight = false;
  /** The cool-down of the current opening: the configured one, or a trip's own. */
  private cooldownMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: BreakerOptions) {
    this.now = opts.now ?? Date.now;
    this.cooldownMs = opts.cooldownMs;
  }

  state(): BreakerState {
    if (!this.opened) return 'closed';
    return this.now() - this.openedAt >= this.cooldownMs ? 'half_open' : 'open';
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Milliseconds until a trial call is allowed; 0 when calls may go through. */
  retryInMs(): number {
    return this.opened ? Math.max(0, this.cooldownMs - (this.now() - this.openedAt)) : 0;
  }

  /** May a call go now? While half-open, only one trial at a time. */
  allow(): boolean {
    const s = this.state();
    if (s === 'closed') return true;
    if (s === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  /** Returns true when this success closed an open breaker. */
  success(): boolean {
    const wasOpen = this.opened;
    this.failures = 0;
    this.opened = false;
    this.trialInFlight = false;
    return wasOpen;
  }

  /** Returns true when this failure opened (or re-opened) the breaker. */
  failure(): boolean {
    this.failures += 1;
    const trial = this.trialInFlight;
    this.trialInFlight = false;
    if (trial || (!this.opened && this.failures >= this.opts.threshold)) {
      this.open(this.opts.cooldownMs);
      return true;
    }
    return false;
  }

  /**
   * Opens at once, whatever the count, for `cooldownMs` (an engine that showed a CAPTCHA
   * will show it again to the next call). Returns true when it was not already open.
   */
  trip(cooldownMs: number): boolean {
    this.failures += 1;
    this.trialInFlight = false;
    const wasOpen = this.opened && this.state() === 'open';
    this.open(cooldownMs);
    return !wasOpen;
  }

  private open(cooldownMs: number): void {
    this.opened = true;
    this.openedAt = this.now();
    this.cooldownMs = cooldownMs;
  }

  /** A call that proved nothing (cancelled by the caller, or refused for its own query). */
  release(): void {
    this.trialInFlight = false;
  }
}
