import { describe, expect, it } from 'vitest';
import { Frontier } from '../../src/site/frontier.ts';

const idle = (): boolean => false;

describe('Frontier', () => {
  it('is first in, first out and holds each page once', () => {
    const f = new Frontier(100);
    expect(f.add('https://a.test/1')).toBe(true);
    expect(f.add('https://a.test/2')).toBe(true);
    expect(f.add('http://www.a.test/1/')).toBe(false);
    expect([f.next(idle)?.url, f.next(idle)?.url, f.next(idle)]).toEqual([
      'https://a.test/1',
      'https://a.test/2',
      undefined,
    ]);
    expect(f.add('https://a.test/1')).toBe(false);
  });

  it('skips to the oldest URL of an idle host, and falls back to the head when all are busy', () => {
    const f = new Frontier(100);
    for (const u of ['https://a.test/1', 'https://a.test/2', 'https://b.test/1', 'https://b.test/2']) f.add(u);
    const busyA = (host: string): boolean => host === 'a.test';
    expect(f.next(busyA)?.url).toBe('https://b.test/1');
    expect(f.next(() => true)?.url).toBe('https://a.test/1');
    expect(f.size).toBe(2);
  });

  it('drops new URLs once full, and remembers URLs marked seen', () => {
    const f = new Frontier(1);
    expect(f.add('https://a.test/1')).toBe(true);
    expect(f.add('https://a.test/2')).toBe(false);
    f.markSeen('https://a.test/3');
    f.next(idle);
    expect(f.add('https://a.test/3')).toBe(false);
    expect(f.add('https://a.test/4')).toBe(true);
  });

  it('restores from a snapshot (through JSON) the same queue in order and every URL seen, none queued again', () => {
    const f = new Frontier(100);
    for (const u of ['https://a.test/1', 'https://a.test/2', 'https://a.test/3']) f.add(u);
    f.markSeen('https://a.test/redirected');
    f.next(idle);
    const snap = JSON.parse(JSON.stringify(f.snapshot())) as ReturnType<Frontier['snapshot']>;
    const g = new Frontier(100);
    // The page in flight when it was taken goes back first.
    g.restore(snap.seen, ['https://a.test/1', ...snap.queue]);
    expect(g.size).toBe(3);
    for (const u of ['https://a.test/1', 'https://a.test/2', 'https://a.test/3', 'https://a.test/redirected'])
      expect(g.add(u)).toBe(false);
    expect([g.next(idle)?.url, g.next(idle)?.url, g.next(idle)?.url]).toEqual([
      'https://a.test/1',
      'https://a.test/2',
      'https://a.test/3',
    ]);
    expect(g.add('https://a.test/4')).toBe(true);
  });
});
