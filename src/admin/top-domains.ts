/**
 * The hosts most often refused or blocked, in bounded memory: the Space-Saving algorithm
 * (Metwally, Agrawal and El Abbadi, 2005). At most `capacity` hosts are tracked; a new host
 * arriving when all slots are taken replaces the least counted one and inherits its count
 * plus one. So any host seen more than total/capacity times is always present, and a count
 * is over by at most the count it inherited (`error`), never under.
 */
export interface DomainCount {
  domain: string;
  count: number;
  /** How much of `count` may belong to hosts this one replaced. */
  error: number;
  outcomes: Record<string, number>;
  lastAt: number;
}

export interface TopDomains {
  add(domain: string, outcome: string, at: number): void;
  /** The `n` highest counts, highest first (ties: most recent first). */
  top(n: number): DomainCount[];
}

export function createTopDomains(capacity: number): TopDomains {
  const counts = new Map<string, DomainCount>();
  return {
    add(domain, outcome, at) {
      let entry = counts.get(domain);
      if (entry === undefined) {
        if (counts.size >= capacity) {
          // A linear scan: capacity is small (hundreds) and refusals are not a hot path.
          let least: DomainCount | undefined;
          for (const e of counts.values()) if (least === undefined || e.count < least.count) least = e;
          counts.delete(least!.domain);
          entry = { domain, count: least!.count, error: least!.count, outcomes: {}, lastAt: at };
        } else {
          entry = { domain, count: 0, error: 0, outcomes: {}, lastAt: at };
        }
        counts.set(domain, entry);
      }
      entry.count++;
      entry.outcomes[outcome] = (entry.outcomes[outcome] ?? 0) + 1;
      entry.lastAt = at;
    },
    top(n) {
      return [...counts.values()]
        .sort((a, b) => b.count - a.count || b.lastAt - a.lastAt)
        .slice(0, n)
        .map((e) => ({ ...e, outcomes: { ...e.outcomes } }));
    },
  };
}
