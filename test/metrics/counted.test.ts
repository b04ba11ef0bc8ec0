import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { countedEvents, countedFetch } from '../../src/metrics/counted.ts';
import { fetchOutcome } from '../../src/metrics/fetch-outcome.ts';
import { createMemorySponsoredStores } from '../../src/store/memory/memory-stores.ts';
import { campaignRecord, impression, read } from '../store/contract/contract-fixtures.ts';

describe('fetchOutcome', () => {
  it.each([
    [undefined, 'ok'],
    [new DomainError('forbidden', 'private address'), 'refused'],
    [new DomainError('upstream', 'challenge', { reason: 'blocked' }), 'blocked'],
    [new DomainError('upstream', 'app shell', { reason: 'app_shell' }), 'app_shell'],
    [new DomainError('upstream', 'HTTP 500'), 'upstream'],
    [new DomainError('unsupported_media', 'image/png'), 'unsupported'],
    [new DomainError('timeout', 'deadline'), 'timeout'],
    [new DomainError('unavailable', 'queue full'), 'busy'],
    [new DomainError('invalid', 'not a URL'), 'invalid'],
    [new TypeError('bug'), 'error'],
  ])('%s → %s', (error, outcome) => {
    expect(fetchOutcome(error)).toBe(outcome);
  });
});

describe('counted wrappers', () => {
  it('count a fetch by outcome and the markdown it returned, and rethrow failures unchanged', async () => {
    const seen: [string, string, number][] = [];
    const observe = (url: string, o: string, chars: number) => void seen.push([url, o, chars]);
    const ok = countedFetch(async ({ url }: { url: string }) => ({ content: `page ${url}` }), observe);
    expect(await ok({ url: 'a' })).toEqual({ content: 'page a' });
    const refused = new DomainError('forbidden', 'no');
    const failing = countedFetch(async (_input: { url: string }): Promise<{ content: string }> => {
      throw refused;
    }, observe);
    await expect(failing({ url: 'b' })).rejects.toBe(refused);
    expect(seen).toEqual([
      ['a', 'ok', 6],
      ['b', 'refused', 0],
    ]);
  });

  it('count ad events by kind once written, not when a write fails', async () => {
    const counts: Record<string, number> = {};
    const stores = createMemorySponsoredStores();
    await stores.campaigns.insert(campaignRecord('cmp_a'));
    const counted = countedEvents(stores, { adEvents: (kind, n) => void (counts[kind] = (counts[kind] ?? 0) + n) });
    await counted.events.write([impression('rec_1', 'cmp_a'), impression('rec_2', 'cmp_a'), read('rec_1', 'cmp_a')]);
    expect(counts).toEqual({ impression: 2, read: 1 });
    const broken = countedEvents(
      { ...stores, events: { ...stores.events, write: async () => Promise.reject(new Error('down')) } },
      { adEvents: (kind, n) => void (counts[kind] = (counts[kind] ?? 0) + n) },
    );
    await expect(broken.events.write([impression('rec_3', 'cmp_a')])).rejects.toThrow('down');
    expect(counts).toEqual({ impression: 2, read: 1 });
  });
});
