/** "30 s", "1.5 s": durations as callers read them in messages (tenths of a second). */
export const inSeconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
