import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey, KEY_PREFIX } from '../../src/keys/api-key-format.ts';

describe('API key format', () => {
  it('has a prefix, 38 base62 characters and a valid checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^scout_[0-9A-Za-z]{38}$/);
    expect(key.startsWith(KEY_PREFIX)).toBe(true);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('is random: no repeats over many keys, every character used', () => {
    const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
    expect(keys.size).toBe(2000);
    const chars = new Set([...keys].join('').slice(0));
    expect(chars.size).toBeGreaterThanOrEqual(62);
  });

  it('refuses a changed character, a truncation or another prefix without a look-up', () => {
    const key = generateApiKey();
    const i = 10;
    const flipped = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(isWellFormedApiKey(flipped)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`ghp_${key.slice(6)}`)).toBe(false);
    expect(isWellFormedApiKey(`${key} `)).toBe(false);
  });

  it('hashes with SHA-256', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
