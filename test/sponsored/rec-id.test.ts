import { describe, expect, it } from 'vitest';
import {
  isRecId,
  newCampaignId,
  newRecId,
  newRecIdKey,
  recIdKeyOrDefault,
  verifyRecId,
} from '../../src/sponsored/rec-id.ts';

const key = newRecIdKey();
const campaign = newCampaignId();
const t = Date.parse('2026-03-10T12:00:00Z');

/** `id` with the character at `at` replaced by another base62 character. */
const changed = (id: string, at: number): string =>
  `${id.slice(0, at)}${id[at] === 'a' ? 'b' : 'a'}${id.slice(at + 1)}`;

describe('rec_id', () => {
  it('is rec_ + 52 base62 characters, unique, and recognised; the old 25-character shape too', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newRecId(campaign, key)));
    expect(ids.size).toBe(20_000);
    for (const id of [...ids].slice(0, 100)) {
      expect(id).toMatch(/^rec_[0-9A-Za-z]{52}$/);
      expect(isRecId(id)).toBe(true);
    }
    expect(isRecId('rec_0NJ3ok2h9fK2xq8TZbW1cLmQe')).toBe(true);
    const id = newRecId(campaign, key);
    for (const bad of [
      'rec_',
      'rec_abc',
      `rec_${'a'.repeat(24)}!`,
      `REC_${'a'.repeat(25)}`,
      `rec_${'a'.repeat(26)}`,
      `${id}x`,
      id.slice(0, -1),
      `rec_${'a'.repeat(51)}-`,
    ]) {
      expect(isRecId(bad)).toBe(false);
    }
  });

  it('starts with the impression time (the store appends), then the campaign', () => {
    const a = newRecId(campaign, key, t);
    const b = newRecId(campaign, key, t + 1);
    expect(a < b).toBe(true);
    expect(a.slice(0, 12)).toBe(newRecId(newCampaignId(), key, t).slice(0, 12));
    expect(a.slice(12, 28)).toBe(campaign.slice(4));
    // One campaign, one millisecond: still one id per impression.
    expect(new Set(Array.from({ length: 1000 }, () => newRecId(campaign, key, t))).size).toBe(1000);
  });

  it('verifies under its key, giving the impression time and the campaign', () => {
    const id = newRecId(campaign, key, t);
    expect(verifyRecId(id, key)).toEqual({ shownAt: t, campaignId: campaign });
    expect(verifyRecId(newRecId(campaign, key, 0), key)).toEqual({ shownAt: 0, campaignId: campaign });
  });

  it('a changed character anywhere (time, campaign, random part, MAC) or another key does not verify', () => {
    const id = newRecId(campaign, key, t);
    // rec_ = 0..3; time 4..11; campaign 12..27; random 28..37; MAC 38..55.
    for (const at of [4, 11, 12, 27, 28, 37, 38, 55]) {
      const forged = changed(id, at);
      expect(isRecId(forged)).toBe(true);
      expect(verifyRecId(forged, key)).toBeUndefined();
    }
    expect(verifyRecId(id, newRecIdKey())).toBeUndefined();
    expect(verifyRecId(newRecId(campaign, newRecIdKey(), t), key)).toBeUndefined();
  });

  it('old-layout ids and malformed strings never verify', () => {
    for (const s of ['rec_0NJ3ok2h9fK2xq8TZbW1cLmQe', 'nonsense', '', `rec_${'0'.repeat(52)}`])
      expect(verifyRecId(s, key)).toBeUndefined();
  });

  it('a campaign id not of newCampaignId’s shape gets an unsigned id of the old layout', () => {
    const id = newRecId('cmp_fromcli', key, t);
    expect(id).toMatch(/^rec_[0-9A-Za-z]{25}$/);
    expect(id.slice(0, 12)).toBe(newRecId(campaign, key, t).slice(0, 12));
    expect(verifyRecId(id, key)).toBeUndefined();
  });

  it('refuses a key shorter than 16 bytes when it is given, not at the first search', () => {
    expect(() => recIdKeyOrDefault(new Uint8Array(15))).toThrow(/at least 16 bytes/);
    const given = new Uint8Array(16);
    expect(recIdKeyOrDefault(given)).toBe(given);
    // One default key per process: a stage and click links built apart still agree.
    expect(recIdKeyOrDefault()).toBe(recIdKeyOrDefault());
  });

  it('campaign ids are cmp_ + 16 base62 characters', () => {
    expect(newCampaignId()).toMatch(/^cmp_[0-9A-Za-z]{16}$/);
  });
});
