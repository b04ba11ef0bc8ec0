/** Postings of one term: slots in increasing order, with the column-weighted frequency. */
export class Postings {
  slots = new Int32Array(4);
  freqs = new Uint32Array(4);
  length = 0;
  /** Live documents holding the term. */
  df = 0;
  /** Each posting's bm25() addition (0 for a dead slot), valid for ranker generation `impactsAt`. */
  impacts = new Float64Array(0);
  impactsAt = -1;

  push(slot: number, freq: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
      const freqs = new Uint32Array(this.length * 2);
      freqs.set(this.freqs);
      this.freqs = freqs;
    }
    this.slots[this.length] = slot;
    this.freqs[this.length++] = freq;
  }

  /** Keeps the postings whose slot maps to a new one (≥ 0), renumbered; order is kept. */
  renumber(newSlot: Int32Array): void {
    let w = 0;
    // i < length ≤ the arrays' length, and every slot has a place in newSlot: the `?? 0`
    // only satisfies the type and is never taken.
    for (let i = 0; i < this.length; i++) {
      const s = newSlot[this.slots[i] ?? 0] ?? 0;
      if (s < 0) continue;
      this.slots[w] = s;
      this.freqs[w++] = this.freqs[i] ?? 0;
    }
    this.length = w;
  }
}
