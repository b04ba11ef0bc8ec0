import { describe, expect, it } from 'vitest';
import { readChargeMicros, type ChargeInputs } from '../../src/store/charge-rule.ts';

const inputs = (over: Partial<ChargeInputs> = {}): ChargeInputs => ({
  bidMicros: 300,
  budgetMicros: 1000,
  dailyCapMicros: null,
  spentMicros: 0,
  spentDayMicros: 0,
  ...over,
});

describe('read charge rule', () => {
  it('charges the bid while budget and day cap leave room for it', () => {
    expect(readChargeMicros(inputs())).toBe(300);
    expect(readChargeMicros(inputs({ dailyCapMicros: 500, spentMicros: 400, spentDayMicros: 200 }))).toBe(300);
  });

  it('caps the charge at what is left of the budget', () => {
    expect(readChargeMicros(inputs({ spentMicros: 900 }))).toBe(100);
    expect(readChargeMicros(inputs({ spentMicros: 1000 }))).toBe(0);
  });

  it("caps the charge at what is left of the read day's cap, whatever the budget", () => {
    expect(readChargeMicros(inputs({ dailyCapMicros: 500, spentMicros: 300, spentDayMicros: 300 }))).toBe(200);
    expect(readChargeMicros(inputs({ dailyCapMicros: 500, spentMicros: 500, spentDayMicros: 500 }))).toBe(0);
    expect(readChargeMicros(inputs({ dailyCapMicros: 0 }))).toBe(0);
  });

  it('takes the smaller of the two caps', () => {
    expect(readChargeMicros(inputs({ dailyCapMicros: 500, spentMicros: 850, spentDayMicros: 250 }))).toBe(150);
    expect(readChargeMicros(inputs({ dailyCapMicros: 500, spentMicros: 600, spentDayMicros: 420 }))).toBe(80);
  });

  it('never charges a negative amount when the spend already passes a cap (a budget lowered after spending)', () => {
    expect(readChargeMicros(inputs({ budgetMicros: 200, spentMicros: 600 }))).toBe(0);
    expect(readChargeMicros(inputs({ dailyCapMicros: 100, spentMicros: 300, spentDayMicros: 300 }))).toBe(0);
  });

  it('charges nothing for a zero bid', () => {
    expect(readChargeMicros(inputs({ bidMicros: 0 }))).toBe(0);
  });
});
