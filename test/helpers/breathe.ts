/**
 * Lets the test worker's event loop run once. Vitest's worker answers its runner over an RPC
 * channel with a fixed 60 s timeout (birpc's default, not configurable in vitest 3): a test
 * that computes for a long stretch without yielding leaves the runner's replies unread, and
 * on a busy machine a 15 s loop becomes 60 s, so the run ends "Timeout calling onTaskUpdate"
 * and exits 1 with every test green (seen with both cores kept busy, issue 24). Long
 * synchronous loops in tests call this every few dozen rounds.
 */
export const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
