import type { MetricSources } from '../metrics/scout-metrics.ts';

/**
 * The metrics' gauges read what is assembled after the metrics (the budget, the providers'
 * breakers, the local index, the ad-event backlog, the extraction line), and those pieces
 * count into the metrics as they are built: the metrics come first, with these sources, and
 * `bind` points them at the real ones once all exist. Gauges are read only at scrape time,
 * and nothing can scrape before the app and the metrics listener are up, after the binding.
 */
export interface GaugeSources {
  /** What createScoutMetrics reads: each call goes to the source bound by then. */
  readonly sources: Required<MetricSources>;
  /** Called once, when every source is assembled. */
  bind(sources: Required<MetricSources>): void;
}

export function lateGaugeSources(): GaugeSources {
  let bound: Required<MetricSources> | undefined;
  const source = (): Required<MetricSources> => {
    if (bound === undefined) throw new Error('a metrics gauge was read before its sources were assembled');
    return bound;
  };
  return {
    // Every source, extractQueue included: its gauge is registered when the source is given,
    // and reads 0 without an extraction pool.
    sources: {
      budget: () => source().budget(),
      providers: () => source().providers(),
      index: () => source().index(),
      eventBacklog: () => source().eventBacklog(),
      extractQueue: () => source().extractQueue(),
    },
    bind(sources) {
      if (bound !== undefined) throw new Error('the metrics gauges are bound once');
      bound = sources;
    },
  };
}
