import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Key format, modelled on GitHub's tokens: a recognisable prefix (greppable by secret
 * scanners), 32 random base62 characters (~190 bits) and a 6-character base62 CRC32 of the
 * prefix and body, so a mistyped or truncated key is refused without a store look-up.
 *   scout_<32 random><6 checksum>
 */
export const KEY_PREFIX = 'scout_';
const BODY = 32;
const CHECK = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY + CHECK}}$`);

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** Uniform base62 string: rejection sampling avoids the modulo bias of `byte % 62`. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

const checksum = (s: string): string => base62(crc32(s) >>> 0, CHECK);

export function generateApiKey(): string {
  const head = KEY_PREFIX + randomBase62(BODY);
  return head + checksum(head);
}

/** Shape and checksum only: true does not mean the key exists. */
export function isWellFormedApiKey(key: string): boolean {
  if (!SHAPE.test(key)) return false;
  const head = key.slice(0, KEY_PREFIX.length + BODY);
  return checksum(head) === key.slice(KEY_PREFIX.length + BODY);
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');
