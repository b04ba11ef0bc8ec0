import { describe, expect, it } from 'vitest';
import { isRecId, newCampaignId, newRecId } from '../../src/sponsored/rec-id.ts';

describe('rec_id', () => {
  it('is rec_ + 25 base62 characters, unique, and recognised', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newRecId()));
    expect(ids.size).toBe(20_000);
    for (const id of [...ids].slice(0, 100)) {
      expect(id).toMatch(/^rec_[0-9A-Za-z]{25}$/);
      expect(isRecId(id)).toBe(true);
    }
    for (const bad of ['rec_', 'rec_abc', `rec_${'a'.repeat(24)}!`, `REC_${'a'.repeat(25)}`, `${newRecId()}x`]) expect(isRecId(bad)).toBe(false);
  });

  it('sorts by impression time (the store appends), with a random part of at least 96 bits', () => {
    const t = Date.parse('2026-03-10T12:00:00Z');
    const a = newRecId(t);
    const b = newRecId(t + 1);
    expect(a < b).toBe(true);
    expect(a.slice(0, 12)).toBe(newRecId(t).slice(0, 12));
    // 17 random base62 characters: 17 × log2(62) ≈ 101 bits.
    expect(17 * Math.log2(62)).toBeGreaterThan(96);
    const tails = new Set(Array.from({ length: 1000 }, () => newRecId(t).slice(12)));
    expect(tails.size).toBe(1000);
  });

  it('campaign ids are cmp_ + 16 base62 characters', () => {
    expect(newCampaignId()).toMatch(/^cmp_[0-9A-Za-z]{16}$/);
  });
});
