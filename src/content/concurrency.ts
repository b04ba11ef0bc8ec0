/**
 * Runs `task(item, index)` over `items` with at most `limit` tasks in flight, in item order.
 * Once `signal` aborts, no further task starts (tasks already running get the signal
 * themselves and decide how to stop). A task's failure is the task's business: `task` must
 * not throw (wrap it), so one bad item never stops the others.
 *
 * Hand-written because it is twelve lines and p-limit has no abort-aware queue; the search
 * request path should not grow a dependency for this.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  // One queue of the items for all workers: each takes the next when its task is done.
  const pending = items.entries();
  const worker = async (): Promise<void> => {
    while (signal?.aborted !== true) {
      const step = pending.next();
      if (step.done === true) return;
      const [index, item] = step.value;
      await task(item, index);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit), items.length));
  await Promise.all(Array.from({ length: workers }, worker));
}
