import { describe, expect, it } from 'vitest';
import { createByteBudget, promisedShare } from '../../src/fetch/byte-budget.ts';
import { defined } from '../helpers/defined.ts';

describe('byte budget', () => {
  it('grants up to the ceiling, then less, and everything back on close', () => {
    const budget = createByteBudget(100, 100);
    const a = budget.open();
    expect(a.take(60)).toBe(60);
    expect(a.take(60)).toBe(40); // cut at the ceiling
    expect(a.take(1)).toBe(0);
    expect(budget.used).toBe(100);
    a.close();
    expect(budget.used).toBe(0);
    expect(budget.openAccounts).toBe(0);
  });

  it('promises every open account its share, so a bomb cannot starve a later small page', () => {
    const budget = createByteBudget(100, 25); // four fetches at once
    const bomb = budget.open();
    expect(bomb.take(1000)).toBe(100); // alone: it may use everything
    bomb.close();
    const bomb2 = budget.open();
    const page = budget.open();
    expect(bomb2.take(1000)).toBe(75); // the page's 25 stay promised
    expect(page.take(10)).toBe(10);
    expect(page.take(20)).toBe(15); // its share, no more: the rest is held by the bomb
    expect(budget.used).toBe(100);
    bomb2.close();
    expect(page.take(50)).toBe(50); // freed bytes are for anyone
    page.close();
    expect(budget.used).toBe(0);
  });

  it('a closed account grants nothing and closing twice gives back once', () => {
    const budget = createByteBudget(100, 50);
    const a = budget.open();
    const b = budget.open();
    a.take(30);
    b.take(30);
    a.close();
    a.close();
    expect(a.take(10)).toBe(0);
    expect(budget.used).toBe(30);
    b.close();
    expect(budget.used).toBe(0);
  });

  it('never exceeds the ceiling and returns to 0, whatever the interleaving (random runs)', () => {
    const broken: string[] = [];
    for (let run = 0; run < 50; run += 1) {
      const ceiling = 1 + Math.floor(Math.random() * 10_000);
      const slots = 1 + Math.floor(Math.random() * 10);
      const budget = createByteBudget(ceiling, Math.floor(ceiling / slots));
      const open = Array.from({ length: slots }, () => budget.open());
      for (let step = 0; step < 500; step += 1) {
        const i = Math.floor(Math.random() * open.length);
        const account = defined(open[i], `account ${i}`);
        if (Math.random() < 0.1) {
          account.close();
          open[i] = budget.open();
        } else {
          const before = account.held;
          const granted = account.take(Math.floor(Math.random() * ceiling));
          if (account.held !== before + granted || granted < 0) broken.push(`run ${run} step ${step}: held`);
        }
        if (budget.used > ceiling) broken.push(`run ${run} step ${step}: ${budget.used} > ${ceiling}`);
        if (budget.used !== open.reduce((sum, a) => sum + a.held, 0)) broken.push(`run ${run} step ${step}: used`);
      }
      for (const a of open) a.close();
      if (budget.used !== 0 || budget.openAccounts !== 0) broken.push(`run ${run}: not back to 0`);
    }
    expect(broken).toEqual([]);
  });

  it('with at most ceiling/share accounts open, each can always take its share', () => {
    const budget = createByteBudget(1000, 250);
    const accounts = Array.from({ length: 4 }, () => budget.open());
    expect(defined(accounts[0], 'a first account').take(5000)).toBe(250); // others' shares stay promised
    for (const a of accounts.slice(1)) expect(a.take(250)).toBe(250);
    for (const a of accounts) a.close();
    expect(budget.used).toBe(0);
  });

  it('promises an equal split when small, a typical page (2 MB) otherwise', () => {
    const MB = 1024 * 1024;
    expect(promisedShare(8 * MB, 8)).toBe(MB);
    expect(promisedShare(64 * MB, 8)).toBe(2 * MB);
    // With the default split, a 9 MB PDF beside seven small pages is read whole.
    const budget = createByteBudget(64 * MB, promisedShare(64 * MB, 8));
    const small = Array.from({ length: 7 }, () => budget.open());
    for (const a of small) a.take(100 * 1024);
    const pdf = budget.open();
    expect(pdf.take(9 * MB)).toBe(9 * MB);
  });
});
