/**
 * The billing rule of sponsored reads, one for every storage backend: the first read of a
 * rec_id is charged the campaign's bid, capped by what is left of its budget and of the read
 * day's cap; later reads of that rec_id, and reads of a campaign the store no longer knows,
 * are free. A backend calls this inside the transaction that records the read, with the
 * spend it holds locked, so two reads racing for the last micros cannot both get them.
 */
export interface ChargeInputs {
  bidMicros: number;
  budgetMicros: number;
  dailyCapMicros: number | null;
  /** Spend of the campaign so far, all time (this read excluded). */
  spentMicros: number;
  /** Spend of the campaign on the read's UTC day so far. */
  spentDayMicros: number;
}

/** Micros to charge for a first read; 0 when the budget or the day's cap is used up. */
export function readChargeMicros(i: ChargeInputs): number {
  const dayLeft = i.dailyCapMicros === null ? Infinity : i.dailyCapMicros - i.spentDayMicros;
  return Math.max(0, Math.min(i.bidMicros, i.budgetMicros - i.spentMicros, dayLeft));
}
