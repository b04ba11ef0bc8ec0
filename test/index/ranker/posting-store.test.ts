import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/make-corpus.ts';
import { BLOCK, PostingStore } from '../../../src/index/ranker/posting-store.ts';
import { SpillFile } from '../../../src/index/ranker/spill-file.ts';
import { END, TermCursor } from '../../../src/index/ranker/term-cursor.ts';
import { putVarint, VarintReader, varintSize } from '../../../src/index/ranker/varint.ts';
import { defined } from '../../helpers/defined.ts';

/** Every slot's length (the tests' slots stay below it). */
const LENS = new Int32Array(1 << 20).fill(200);

interface Posting {
  slot: number;
  wf: number;
  pos: number[];
}

/** Random postings for a few terms: one rare, some spanning many blocks. */
function fill(store: PostingStore, rand: () => number): Posting[][] {
  const sizes = [3, BLOCK, BLOCK + 1, 5 * BLOCK + 17, 2000];
  store.addTerms(sizes.length);
  return sizes.map((n, t) => {
    const list: Posting[] = [];
    let slot = -1;
    for (let i = 0; i < n; i++) {
      slot += 1 + Math.floor(rand() * (rand() < 0.1 ? 5000 : 20));
      const pos: number[] = [];
      let p = 0;
      for (let k = 0, count = 1 + Math.floor(rand() * 6); k < count; k++) pos.push((p += 1 + Math.floor(rand() * 300)));
      const posting = { slot, wf: pos.length + Math.floor(rand() * 3) * 2, pos };
      store.append(t, slot, posting.wf, 10 + Math.floor(rand() * 500), pos, 0, pos.length, 300);
      list.push(posting);
    }
    return list;
  });
}

function walk(c: TermCursor): Posting[] {
  const out: Posting[] = [];
  const run = { pos: new Int32Array(0), from: 0, to: 0 };
  for (; c.slot !== END; c.next()) {
    c.positions(run);
    out.push({ slot: c.slot, wf: c.wf, pos: [...run.pos.subarray(run.from, run.to)] });
  }
  return out;
}

describe('varint', () => {
  it('round-trips values of every length', () => {
    const values = [0, 1, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 31 - 1];
    const bytes = new Uint8Array(64);
    let at = 0;
    for (const v of values) {
      const next = putVarint(bytes, at, v);
      expect(next - at).toBe(varintSize(v));
      at = next;
    }
    const r = new VarintReader();
    r.reset(bytes, 0);
    expect(values.map(() => r.next())).toEqual(values);
  });
});

describe('PostingStore and TermCursor', () => {
  it('give back every posting (slots, weights, positions) in order, across sealed and open blocks', () => {
    const store = new PostingStore(() => LENS);
    const lists = fill(store, rng(1));
    lists.forEach((list, t) => {
      expect(walk(new TermCursor(store, t, undefined))).toEqual(list);
      expect(store.df[t]).toBe(list.length);
      expect(store.blocks[t]).toBe(Math.floor(list.length / BLOCK));
    });
    // Trimmed to size, the same postings, and appends still work after it.
    const before = store.heapBytes;
    store.trim();
    expect(store.heapBytes).toBeLessThan(before);
    const list4 = defined(lists[4], 'the postings of term 4');
    const last = defined(list4.at(-1), 'a last posting').slot;
    store.append(4, last + 3, 2, 40, [7, 9], 0, 2, 300);
    list4.push({ slot: last + 3, wf: 2, pos: [7, 9] });
    for (const [t, list] of lists.entries()) expect(walk(new TermCursor(store, t, undefined))).toEqual(list);
  });

  it('advance() lands on the first posting at or after any target, skipping blocks', () => {
    const store = new PostingStore(() => LENS);
    const lists = fill(store, rng(2));
    const rand = rng(3);
    lists.forEach((list, t) => {
      const last = defined(list.at(-1), `a last posting of term ${t}`).slot;
      for (let i = 0; i < 200; i++) {
        const c = new TermCursor(store, t, undefined);
        let target = 0;
        for (let k = 0; k < 4; k++) {
          target += Math.floor(rand() * (last / 3));
          c.advance(target);
          const want = list.find((p) => p.slot >= target);
          expect(c.slot, `term ${t} target ${target}`).toBe(want?.slot ?? END);
          if (want) expect(c.wf).toBe(want.wf);
        }
      }
    });
  });

  it('reads spilled blocks back from the spill file, and keeps appending after a spill', () => {
    const store = new PostingStore(() => LENS);
    const rand = rng(4);
    const lists = fill(store, rand);
    const before = store.heapBytes;
    const file = new SpillFile();
    try {
      expect(store.spill(file)).toBeGreaterThan(0);
      expect(store.heapBytes).toBeLessThan(before);
      expect(store.spilledBytes).toBe(file.size);
      // More postings after the spill: new blocks seal in memory beside the spilled ones.
      const t = 4;
      const list = defined(lists[t], `the postings of term ${t}`);
      let slot = defined(list.at(-1), 'a last posting').slot;
      for (let i = 0; i < 300; i++) {
        slot += 1 + Math.floor(rand() * 9);
        store.append(t, slot, 1, 50, [i + 1], 0, 1, 300);
        list.push({ slot, wf: 1, pos: [i + 1] });
      }
      for (const [term, list] of lists.entries()) expect(walk(new TermCursor(store, term, file))).toEqual(list);
      store.spill(file);
      for (const [term, list] of lists.entries()) expect(walk(new TermCursor(store, term, file))).toEqual(list);
    } finally {
      file.close();
    }
  });
});
