import { createHmac, createSecretKey, randomBytes, randomFillSync, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * rec_id: `rec_` + 52 base62 characters, in this order:
 * - 8: the impression time (ms). First, so the impressions table grows at its end instead of
 *   at random places, which keeps the write-behind cheap as it grows (bench/sponsored.ts);
 * - 16: the campaign id without its `cmp_`;
 * - 10: random (~59 bits), so two impressions of one campaign in one millisecond differ;
 * - 18: a MAC of the 34 before it: HMAC-SHA256 under the rec_id key, byte i of the digest
 *   giving character i (byte mod 62; at least 5.68 bits each even counting the bias, so over
 *   102 bits).
 * The id is self-describing: a click or read resolves it from the campaign when its impression
 * row was never written (a killed process, a replica that has not written it yet), and the MAC
 * keeps anyone without the key from making one for a campaign or a time.
 *
 * Ids issued before (`rec_` + 25: 8 of time, 17 random, unsigned) still resolve, through
 * their impression row only.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TIME = 8;
const CAMPAIGN = 16;
const NONCE = 10;
const MAC = 18;
const BODY = TIME + CAMPAIGN + NONCE;
const LEGACY_RANDOM = 17;
const REC_SHAPE = new RegExp(`^rec_(?:[0-9A-Za-z]{${BODY + MAC}}|[0-9A-Za-z]{${TIME + LEGACY_RANDOM}})$`);
const SIGNED_SHAPE = new RegExp(`^rec_[0-9A-Za-z]{${BODY + MAC}}$`);
const CAMPAIGN_SHAPE = new RegExp(`^cmp_[0-9A-Za-z]{${CAMPAIGN}}$`);
/** Domain separation: this key signs rec_ids and nothing else, in this layout only. */
const MAC_CONTEXT = 'scout rec_id v1\u0000';
const MIN_KEY_BYTES = 16;

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

function timeOf(chars: string): number {
  let n = 0;
  for (const c of chars) n = n * 62 + ALPHABET.indexOf(c);
  return n;
}

/** A KeyObject per key: it spares HMAC the key import on every id. */
const keyObjects = new WeakMap<Uint8Array, KeyObject>();

function keyObject(key: Uint8Array): KeyObject {
  let k = keyObjects.get(key);
  if (!k) {
    if (key.byteLength < MIN_KEY_BYTES)
      throw new Error(`the rec_id key must be at least ${MIN_KEY_BYTES} bytes (it has ${key.byteLength})`);
    k = createSecretKey(key);
    keyObjects.set(key, k);
  }
  return k;
}

function mac(body: string, key: Uint8Array): string {
  const digest = createHmac('sha256', keyObject(key)).update(MAC_CONTEXT).update(body, 'latin1').digest();
  let out = '';
  for (let i = 0; i < MAC; i++) out += ALPHABET[(digest[i] as number) % 62];
  return out;
}

/** A fresh random rec_id key (32 bytes). */
export const newRecIdKey = (): Uint8Array => new Uint8Array(randomBytes(32));

let processKey: Uint8Array | undefined;
/**
 * The key to sign with: `key`, checked now (not at the first search), or where none is given
 * one per process, so the ids it issues stop verifying when it exits (their rows still resolve
 * them). Replicas must be given one shared key instead.
 */
export function recIdKeyOrDefault(key?: Uint8Array): Uint8Array {
  if (!key) return (processKey ??= newRecIdKey());
  keyObject(key);
  return key;
}

/**
 * A rec_id for an impression of `campaignId` at `at`, signed with `key`. A campaign id not
 * of newCampaignId's shape (only ever written straight into a store, by hand or by a test)
 * gets an unsigned id of the old layout: it resolves through its impression row only.
 */
export function newRecId(campaignId: string, key: Uint8Array, at: number = Date.now()): string {
  const time = base62Time(at);
  if (!CAMPAIGN_SHAPE.test(campaignId)) return `rec_${time}${randomBase62(LEGACY_RANDOM)}`;
  const body = `${time}${campaignId.slice(4)}${randomBase62(NONCE)}`;
  return `rec_${body}${mac(body, key)}`;
}

/** The shape of a rec_id, signed or of the old layout; says nothing of who made it. */
export const isRecId = (s: string): boolean => REC_SHAPE.test(s);

/** What a signed rec_id says, when `key` signed it; undefined otherwise (old layout included). */
export function verifyRecId(recId: string, key: Uint8Array): { shownAt: number; campaignId: string } | undefined {
  if (!SIGNED_SHAPE.test(recId)) return undefined;
  const body = recId.slice(4, 4 + BODY);
  const expected = Buffer.from(mac(body, key), 'latin1');
  if (!timingSafeEqual(expected, Buffer.from(recId.slice(4 + BODY), 'latin1'))) return undefined;
  return { shownAt: timeOf(body.slice(0, TIME)), campaignId: `cmp_${body.slice(TIME, TIME + CAMPAIGN)}` };
}

/** Campaign ids: `cmp_` + 16 random base62 characters. */
export const newCampaignId = (): string => `cmp_${randomBase62(CAMPAIGN)}`;
