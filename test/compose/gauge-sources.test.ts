import { describe, expect, it } from 'vitest';
import { lateGaugeSources } from '../../src/compose/gauge-sources.ts';
import { createScoutMetrics } from '../../src/metrics/scout-metrics.ts';

const sources = {
  budget: async () => ({ total: 100, used: 40, left: 60 }),
  providers: () => [
    { name: 'brave', state: 'open', last: { health: 'blocked' } },
    { name: 'local', state: 'closed' },
  ],
  index: () => ({ state: 'ready', documents: 7 }),
  eventBacklog: () => 3,
  extractQueue: () => 2,
};

describe('lateGaugeSources', () => {
  it('registers every gauge at once and reads the sources bound later, at scrape time', async () => {
    const gauges = lateGaugeSources();
    const metrics = createScoutMetrics(gauges.sources);
    gauges.bind(sources);
    const text = await metrics.render();
    expect(text).toContain('scout_provider_breaker_open{provider="brave"} 1');
    // The last call's health: 1 on it, 0 on the others; nothing for a provider not called yet.
    expect(text).toContain('scout_provider_health{provider="brave",health="blocked"} 1');
    expect(text).toContain('scout_provider_health{provider="brave",health="ok"} 0');
    expect(text).not.toContain('scout_provider_health{provider="local"');
    expect(text).toContain('scout_extract_queue_pages 2');
    expect(text).toContain('scout_sponsored_event_backlog 3');
    expect(text).toContain('scout_index_documents 7');
    expect(text).toContain('scout_index_ranked_in_memory 1');
    expect(text).toContain('scout_search_budget_units{state="left"} 60');
  });

  it('refuses a read before the binding and a second binding', () => {
    const gauges = lateGaugeSources();
    expect(() => gauges.sources.eventBacklog()).toThrow(/before its sources were assembled/);
    gauges.bind(sources);
    expect(() => gauges.bind(sources)).toThrow(/bound once/);
  });
});
