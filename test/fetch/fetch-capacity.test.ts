import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import type { FetchOutcome, FetchService } from '../../src/fetch/fetch-service.ts';
import { createByteBudget, type ByteAccount } from '../../src/fetch/byte-budget.ts';
import { currentByteAccount } from '../../src/fetch/byte-scope.ts';
import { withFetchCapacity } from '../../src/fetch/fetch-capacity.ts';
import { domainFailure } from '../helpers/domain-failure.ts';

/** A FetchService whose fetches run until the test ends them, like the real one on a held origin. */
function heldService() {
  const running = new Map<
    string,
    { signal: AbortSignal; account: ByteAccount | undefined; finish(): void; fail(e: Error): void }
  >();
  const outcome = (url: string): FetchOutcome => ({
    url,
    finalUrl: url,
    title: '',
    content: '',
    chars: 0,
    truncated: false,
    meta: { unwrapped: false, click_path: null, content_type: null },
  });
  const service: FetchService = {
    fetch: ({ url, signal }) =>
      new Promise<FetchOutcome>((resolve, reject) => {
        const account = currentByteAccount();
        account?.take(1000);
        signal?.addEventListener('abort', () => reject(new DomainError('timeout', 'inner deadline')), { once: true });
        running.set(url, { signal: signal as AbortSignal, account, finish: () => resolve(outcome(url)), fail: reject });
      }),
    close: async () => {},
  };
  return { service, running };
}

const settled = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const limited = (service: FetchService, extra: Partial<Parameters<typeof withFetchCapacity>[1]> = {}) =>
  withFetchCapacity(service, { concurrency: 2, queue: 1, timeoutMs: 10_000, now: () => Date.now(), ...extra });

describe('fetch capacity', () => {
  it('runs `concurrency` fetches, queues `queue`, refuses the rest at once with 503 and Retry-After', async () => {
    const { service, running } = heldService();
    const f = limited(service);
    const a = f.fetch({ url: 'a', maxChars: 1 });
    await settled();
    vi.advanceTimersByTime(3000);
    const b = f.fetch({ url: 'b', maxChars: 1 });
    const c = f.fetch({ url: 'c', maxChars: 1 });
    await settled();
    expect([f.active, f.queued]).toEqual([2, 1]);
    expect([...running.keys()]).toEqual(['a', 'b']);
    const refused = await domainFailure(f.fetch({ url: 'd', maxChars: 1 }));
    expect(refused.kind).toBe('unavailable');
    expect(refused.message).toMatch(
      /^fetch capacity is exhausted: 2 fetches are running and 1 waiting.*; retry in 7 s$/,
    );
    expect(refused.retryAfterS).toBe(7); // a's deadline, 7 s away, frees a slot at the latest
    running.get('a')!.finish();
    await settled();
    expect(running.has('c')).toBe(true); // the queued fetch took a's slot
    running.get('b')!.finish();
    running.get('c')!.finish();
    await Promise.all([a, b, c]);
    expect([f.active, f.queued]).toEqual([0, 0]);
  });

  it('a queued fetch runs only until the deadline counted from its arrival', async () => {
    const { service, running } = heldService();
    const f = limited(service, { concurrency: 1 });
    const a = f.fetch({ url: 'a', maxChars: 1 });
    const b = f.fetch({ url: 'b', maxChars: 1 });
    await settled();
    vi.advanceTimersByTime(3000);
    running.get('a')!.finish();
    await a;
    await settled();
    const signal = running.get('b')!.signal;
    vi.advanceTimersByTime(6999);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal.aborted).toBe(true); // 3 s in line + 7 s running = the 10 s deadline
    expect((await domainFailure(b)).kind).toBe('timeout');
  });

  it('a fetch still in line at half its deadline is 503 with Retry-After, and the origin is never asked', async () => {
    const { service, running } = heldService();
    const f = limited(service, { concurrency: 1 });
    const a = f.fetch({ url: 'a', maxChars: 1 });
    await settled();
    vi.advanceTimersByTime(1000);
    const b = domainFailure(f.fetch({ url: 'b', maxChars: 1 }));
    vi.advanceTimersByTime(5000);
    const refused = await b;
    expect(refused.kind).toBe('unavailable');
    expect(refused.message).toContain(
      'fetch capacity stayed exhausted: this fetch waited 5 s (half its 10 s deadline)',
    );
    expect(refused.retryAfterS).toBe(4); // a ends by its deadline, 4 s away
    expect(running.has('b')).toBe(false);
    expect(f.queued).toBe(0);
    running.get('a')!.finish();
    await a;
  });

  it('a caller that gives up while in line ends as a timeout and leaves the line', async () => {
    const { service, running } = heldService();
    const f = limited(service, { concurrency: 1 });
    const a = f.fetch({ url: 'a', maxChars: 1 });
    const caller = new AbortController();
    const b = domainFailure(f.fetch({ url: 'b', maxChars: 1, signal: caller.signal }));
    caller.abort(new DomainError('timeout', 'the advanced search stage ran out of time'));
    expect((await b).message).toBe('the advanced search stage ran out of time');
    expect(f.queued).toBe(0);
    running.get('a')!.finish();
    await a;
  });

  it('the line is bounded by time, not by the number of slots: a burst far past the slots waits, and what is still waiting at half the deadline is 503', async () => {
    const { service, running } = heldService();
    const f = limited(service, { concurrency: 2, queue: 1000 });
    const burst = Array.from({ length: 40 }, (_, i) =>
      f.fetch({ url: `p${i}`, maxChars: 1, caller: 'one key' }).then(
        () => 200,
        (e: DomainError) => e,
      ),
    );
    await settled();
    expect([f.active, f.queued]).toEqual([2, 38]); // none refused at once
    for (let i = 0; i < 20; i += 1) {
      running.get(`p${i}`)!.finish(); // each frees its slot for the next in line
      await settled();
    }
    vi.advanceTimersByTime(5000); // half the deadline: the 18 still waiting are refused, not started
    const answers = await Promise.all(burst.slice(0, 20).concat(burst.slice(22)));
    expect(answers.slice(0, 20)).toEqual(Array(20).fill(200));
    for (const refused of answers.slice(20) as DomainError[]) {
      expect(refused.kind).toBe('unavailable');
      expect(refused.message).toContain('fetch capacity stayed exhausted');
    }
    expect(running.has('p22')).toBe(false);
    expect([f.active, f.queued]).toEqual([2, 0]);
    running.get('p20')!.finish();
    running.get('p21')!.finish();
    await Promise.all(burst.slice(20, 22));
  });

  it("shares slots fairly between callers: a freed slot goes to a caller with none before busy callers' earlier fetches", async () => {
    const { service, running } = heldService();
    const f = limited(service, { concurrency: 3, queue: 100 });
    const all = ['a1', 'a2', 'b1', 'a3', 'b2', 'c1'].map((url) => f.fetch({ url, maxChars: 1, caller: url.charAt(0) }));
    await settled();
    expect([...running.keys()]).toEqual(['a1', 'a2', 'b1']);
    running.get('a1')!.finish();
    await settled();
    expect([...running.keys()]).toEqual(['a1', 'a2', 'b1', 'c1']); // c, holding none, before a3 and b2
    running.get('b1')!.finish();
    await settled();
    expect(running.has('b2')).toBe(true); // b now holds none: b2 before a3, which came first
    for (const url of ['a2', 'c1', 'b2']) running.get(url)!.finish();
    await settled();
    running.get('a3')!.finish();
    await Promise.all(all);
    expect([f.active, f.queued]).toEqual([0, 0]);
  });

  it("in a full line a caller's newcomer takes the place of the busiest caller's latest, which is 503; the busiest caller's own newcomer is 503 at once", async () => {
    const { service, running } = heldService();
    const f = limited(service, { concurrency: 1, queue: 2 });
    const a1 = f.fetch({ url: 'a1', maxChars: 1, caller: 'a' });
    const a2 = f.fetch({ url: 'a2', maxChars: 1, caller: 'a' });
    const a3 = domainFailure(f.fetch({ url: 'a3', maxChars: 1, caller: 'a' }));
    const a4 = await domainFailure(f.fetch({ url: 'a4', maxChars: 1, caller: 'a' }));
    expect(a4.message).toMatch(
      /^fetch capacity is exhausted: 1 fetches are running and 2 waiting.*send fewer fetches at once; retry in \d+ s$/,
    );
    const c1 = f.fetch({ url: 'c1', maxChars: 1, caller: 'c' });
    const pushed = await a3;
    expect(pushed.kind).toBe('unavailable');
    expect(pushed.message).toMatch(
      /this caller had the most of them, so its latest gave its place to another caller's: send fewer fetches at once; retry in 10 s$/,
    );
    expect(pushed.retryAfterS).toBe(10);
    running.get('a1')!.finish();
    await settled();
    expect(running.has('a2')).toBe(true); // a and c hold none now: the earlier, a2
    running.get('a2')!.finish();
    await settled();
    running.get('c1')!.finish();
    await Promise.all([a1, a2, c1]);
    expect(running.has('a3')).toBe(false);
  });

  it("a caller that gives up while its fetch runs stops it (the service's signal aborts) and frees the slot for the next", async () => {
    const { service, running } = heldService();
    const f = limited(service, { concurrency: 1, queue: 1 });
    const caller = new AbortController();
    const gone = domainFailure(f.fetch({ url: 'a', maxChars: 1, signal: caller.signal }));
    const next = f.fetch({ url: 'b', maxChars: 1 });
    await settled();
    caller.abort(new DomainError('timeout', 'the client closed its connection before the answer'));
    expect(running.get('a')!.signal.aborted).toBe(true);
    expect((await gone).kind).toBe('timeout');
    await settled();
    expect(running.has('b')).toBe(true);
    running.get('b')!.finish();
    await next;
    expect([f.active, f.queued]).toEqual([0, 0]);
  });

  it('opens a byte account per running fetch and closes it on success, error and abort', async () => {
    const { service, running } = heldService();
    const bytes = createByteBudget(10_000, 5000);
    const f = limited(service, { bytes });
    for (let round = 0; round < 20; round += 1) {
      const caller = new AbortController();
      const ok = f.fetch({ url: 'ok', maxChars: 1 });
      const bad = domainFailure(f.fetch({ url: 'bad', maxChars: 1, signal: caller.signal }));
      await settled();
      expect(running.get('ok')!.account).toBeDefined();
      expect(running.get('ok')!.account).not.toBe(running.get('bad')!.account);
      expect(bytes.used).toBe(2000);
      expect(bytes.openAccounts).toBe(2);
      running.get('ok')!.finish();
      await ok;
      expect(bytes.used).toBe(1000);
      if (round % 2 === 0) caller.abort();
      else running.get('bad')!.fail(new DomainError('upstream', 'origin answered 500'));
      await bad;
      expect(bytes.used).toBe(0);
      expect(bytes.openAccounts).toBe(0);
    }
    // Deadline: the account is closed when the fetch times out, too.
    const late = domainFailure(f.fetch({ url: 'late', maxChars: 1 }));
    await settled();
    expect(bytes.used).toBe(1000);
    vi.advanceTimersByTime(10_000);
    expect((await late).kind).toBe('timeout');
    expect(bytes.used).toBe(0);
    expect(running.get('late')!.account!.take(1)).toBe(0); // late reads after the end get nothing
  });
});
