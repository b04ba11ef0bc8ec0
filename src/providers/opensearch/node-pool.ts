/**
 * The order in which a call tries a cluster's nodes: round-robin over the configured nodes,
 * so load spreads without a load balancer in front, with the nodes that failed lately moved
 * to the end for a cool-down, so a node that is down costs one refused connection per
 * cool-down rather than one per call. Every node stays in the order: when all are marked
 * down, the call still tries them all.
 */
export class NodePool {
  readonly #nodes: readonly string[];
  readonly #downMs: number;
  readonly #now: () => number;
  readonly #downUntil = new Map<string, number>();
  #next = 0;

  constructor(nodes: readonly string[], options: { downMs?: number; now?: () => number } = {}) {
    if (nodes.length === 0) throw new Error('a node pool needs at least one node');
    this.#nodes = nodes;
    this.#downMs = options.downMs ?? 30_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Every node once, for one call: the next in turn first, nodes in cool-down last. */
  order(): string[] {
    const start = this.#next;
    this.#next = (this.#next + 1) % this.#nodes.length;
    const rotated = [...this.#nodes.slice(start), ...this.#nodes.slice(0, start)];
    const now = this.#now();
    const up = rotated.filter((n) => (this.#downUntil.get(n) ?? 0) <= now);
    return up.length === rotated.length ? rotated : [...up, ...rotated.filter((n) => !up.includes(n))];
  }

  /** The node could not serve a call (refused, reset, 502/503/504): tried last for a while. */
  down(node: string): void {
    this.#downUntil.set(node, this.#now() + this.#downMs);
  }

  /** The node answered: back in its turn. */
  up(node: string): void {
    this.#downUntil.delete(node);
  }
}
