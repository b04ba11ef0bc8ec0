/**
 * The best k of a stream of (score, id) pairs: a binary min-heap of size k, so choosing
 * 10 of 5,000 candidates costs 5,000 compares instead of a sort. Better = higher score,
 * then lower id (a stable order for ties, as a rowid-ordered scan gives).
 */
export class TopK {
  readonly #k: number;
  readonly #score: Float64Array;
  readonly #id: Float64Array;
  #n = 0;

  constructor(k: number) {
    this.#k = k;
    this.#score = new Float64Array(k);
    this.#id = new Float64Array(k);
  }

  /** True when (a, ia) ranks below (b, ib). */
  static #worse(a: number, ia: number, b: number, ib: number): boolean {
    return a < b || (a === b && ia > ib);
  }

  offer(score: number, id: number): void {
    if (this.#k === 0) return;
    const s = this.#score;
    const d = this.#id;
    if (this.#n < this.#k) {
      let i = this.#n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!TopK.#worse(score, id, s[p], d[p])) break;
        s[i] = s[p];
        d[i] = d[p];
        i = p;
      }
      s[i] = score;
      d[i] = id;
      return;
    }
    if (!TopK.#worse(s[0], d[0], score, id)) return;
    // Replace the root (the worst kept) and sift down.
    let i = 0;
    const n = this.#n;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && TopK.#worse(s[r], d[r], s[l], d[l]) ? r : l;
      if (!TopK.#worse(s[c], d[c], score, id)) break;
      s[i] = s[c];
      d[i] = d[c];
      i = c;
    }
    s[i] = score;
    d[i] = id;
  }

  /** The kept pairs, best first. */
  sorted(): { id: number; score: number }[] {
    const out: { id: number; score: number }[] = [];
    for (let i = 0; i < this.#n; i++) out.push({ id: this.#id[i], score: this.#score[i] });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
