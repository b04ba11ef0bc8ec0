/**
 * What a start opened, to close again in reverse order when it fails half way or when the
 * whole closes: one failing close does not leave the others open (the first error is thrown
 * after all have run).
 */
export interface Closers {
  add(close: () => unknown): void;
  closeAll(): Promise<void>;
}

export function createClosers(): Closers {
  const closers: (() => unknown)[] = [];
  return {
    add(close) {
      closers.push(close);
    },
    async closeAll() {
      let first: unknown;
      for (const close of closers.splice(0).reverse()) {
        try {
          await close();
        } catch (e) {
          first ??= e;
        }
      }
      if (first !== undefined) throw first;
    },
  };
}
