import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { startTestScout, type TestScout } from './test-scout.ts';

/**
 * For tests of fetches whose caller leaves: an origin whose /held page never answers (its
 * responses are kept in `held`) and a /page that does, and a Scout with one fetch slot and
 * no line, so a fetch that still held the slot would make the next one 503. The deadline is
 * 60 s: what such a test waits for happens in milliseconds, or never.
 */
export interface OneSlotFetch {
  t: TestScout;
  origin: FixtureServer;
  held: ServerResponse[];
  close(): Promise<void>;
}

export const NEXT_PAGE_TEXT = 'The next fetch got the slot.';

export async function startOneSlotFetch(): Promise<OneSlotFetch> {
  const held: ServerResponse[] = [];
  const origin = await startFixtureServer({
    '/held': (_req, res) => void held.push(res),
    '/page': {
      headers: { 'content-type': 'text/html' },
      body: `<html><head><title>Next</title></head><body><main><p>${NEXT_PAGE_TEXT}</p></main></body></html>`,
    },
  });
  const t = await startTestScout({
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_FETCH_CONCURRENCY: '1',
    SCOUT_FETCH_QUEUE: '0',
    SCOUT_FETCH_TIMEOUT_MS: '60000',
  });
  return {
    t,
    origin,
    held,
    async close() {
      for (const res of held) res.destroy();
      await t.close();
      await origin.close();
    },
  };
}

/**
 * One for the calling test file: started in its beforeAll, closed in its afterAll. Read its
 * fields inside the tests (they are set once beforeAll has run).
 */
export function useOneSlotFetch(): OneSlotFetch {
  const f = {} as OneSlotFetch;
  beforeAll(async () => void Object.assign(f, await startOneSlotFetch()));
  afterAll(() => f.close());
  return f;
}

/** Polls `cond` every 5 ms for up to 20 s (far beyond the milliseconds it takes). */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 4000 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error(`never happened: ${what}`);
}
