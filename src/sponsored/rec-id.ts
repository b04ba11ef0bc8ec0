import { randomFillSync } from 'node:crypto';

/**
 * rec_id: `rec_` + 8 base62 characters of the impression time (ms) + 17 random base62
 * characters (~101 bits). The random part makes it unique and unguessable, so nobody can
 * fabricate reads or clicks of impressions never shown; the time prefix makes the
 * impressions table grow at its end instead of at random places, which keeps the
 * write-behind cheap as it grows (measured by bench/sponsored.ts).
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TIME = 8;
const RANDOM = 17;
const REC_SHAPE = new RegExp(`^rec_[0-9A-Za-z]{${TIME + RANDOM}}$`);

/** Random bytes drawn in blocks: one system call per few hundred ids, not one per id. */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    const b = pool[used++] as number;
    // Rejection sampling: 248 = 4 × 62, so every character is equally likely.
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

function base62Time(ms: number): string {
  let out = '';
  let n = Math.max(0, Math.floor(ms));
  for (let i = 0; i < TIME; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export const newRecId = (at: number = Date.now()): string => `rec_${base62Time(at)}${randomBase62(RANDOM)}`;
export const isRecId = (s: string): boolean => REC_SHAPE.test(s);

/** Campaign ids: `cmp_` + 16 random base62 characters. */
export const newCampaignId = (): string => `cmp_${randomBase62(16)}`;
