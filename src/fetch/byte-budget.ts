/**
 * One ceiling on the response bytes buffered by all fetches of the process at once.
 *
 * Each fetch opens an account; bytes are taken as they are decoded and given back, all at
 * once, when the account closes (the fetch ended: success, error or abort). At the ceiling a
 * fetch gets fewer bytes than it asked for and its body is cut there (marked truncated, as
 * at the per-fetch caps) rather than failing or waiting: waiting could deadlock (every fetch
 * holding part of a body, each waiting for another to finish), and failing would throw away
 * a usable prefix.
 *
 * Fairness: every open account is promised `share` bytes, so a few large pages or
 * decompression bombs cannot starve a small page that starts later; bytes beyond its share
 * come only from what no account holds or is promised. With at most `ceiling / share`
 * accounts open (the fetch capacity ensures it) every fetch can always read its share; the
 * ceiling itself holds whatever happens.
 */

/** A promise big enough for nearly every HTML page; more would leave nothing to borrow. */
const TYPICAL_PAGE = 2 * 1024 * 1024;

/**
 * The share promised to each of `concurrency` fetches: an equal split when that is small,
 * else a typical page. Promising the whole equal split (8 MB of 64 MB for 8 fetches) would
 * cap a 9 MB PDF at 8 MB whenever all slots are busy, even with seven small pages beside it;
 * promising 2 MB leaves the rest to whoever needs it first.
 */
export const promisedShare = (ceiling: number, concurrency: number): number =>
  Math.min(Math.floor(ceiling / concurrency), TYPICAL_PAGE);

export interface ByteAccount {
  /** Grants up to `n` more bytes; fewer (maybe 0) at the ceiling or once closed. */
  take(n: number): number;
  /** Bytes this account holds. */
  readonly held: number;
  /** Gives every byte back; later takes grant nothing. Idempotent. */
  close(): void;
}

export interface ByteBudget {
  open(): ByteAccount;
  /** Bytes held by all open accounts. */
  readonly used: number;
  /** Accounts open. */
  readonly openAccounts: number;
  readonly ceiling: number;
  /** Bytes promised to each open account. */
  readonly share: number;
}

export function createByteBudget(ceiling: number, share: number): ByteBudget {
  let used = 0;
  let accounts = 0;
  // Σ max(held, share) over open accounts: what is held or promised.
  let committed = 0;
  const reserve = (held: number) => Math.max(held, share);

  return {
    open() {
      let held = 0;
      let closed = false;
      accounts += 1;
      committed += reserve(0);
      return {
        take(n) {
          if (closed || n <= 0) return 0;
          const ownLeft = Math.max(0, share - held);
          const unpromised = Math.max(0, ceiling - committed);
          const granted = Math.max(0, Math.min(n, ownLeft + unpromised, ceiling - used));
          committed += reserve(held + granted) - reserve(held);
          held += granted;
          used += granted;
          return granted;
        },
        get held() {
          return held;
        },
        close() {
          if (closed) return;
          closed = true;
          accounts -= 1;
          committed -= reserve(held);
          used -= held;
          held = 0;
        },
      };
    },
    get used() {
      return used;
    },
    get openAccounts() {
      return accounts;
    },
    ceiling,
    share,
  };
}
