import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { budgetPeriod } from '../../src/search/search-budget.ts';

/**
 * What tests of a real `scout serve` process read from outside: the first key (stdout is a
 * pipe, not a terminal, so it is in the data folder rather than the log), one search, and
 * the budget counted in the data folder's store.
 */
export function firstKey(dataDir: string): string {
  const key = /(scout_[0-9A-Za-z]{38})/.exec(readFileSync(join(dataDir, 'first-api-key.txt'), 'utf8'))?.[1];
  if (key === undefined) throw new Error(`no key in ${join(dataDir, 'first-api-key.txt')}`);
  return key;
}

/** One POST /v1/search that must answer 200 within `ms`. */
export async function searchOk(port: number, key: string, query: string, ms = 10_000): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(ms),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`POST /v1/search answered ${res.status}: ${body.slice(0, 300)}`);
}

/** Units counted as used this month in the data folder's store. */
export function budgetUsed(dataDir: string): number {
  const db = new Database(join(dataDir, 'scout.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT used FROM search_budget WHERE period = ?').get(budgetPeriod(new Date())) as
      | { used: number }
      | undefined;
    return row?.used ?? 0;
  } finally {
    db.close();
  }
}
