import type pg from 'pg';

/** Serialization failure and deadlock: the transaction was rolled back whole, so it can run again. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs `work` in one transaction on one pooled connection: committed when it returns,
 * rolled back when it throws. A transaction PostgreSQL aborted as a deadlock victim or a
 * serialization failure is run again (up to `attempts` in all). A connection whose
 * ROLLBACK fails is closed instead of going back to the pool.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let doubt: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch((r: Error) => {
        doubt = r;
      });
      if (attempt >= attempts || !RETRYABLE.has((e as { code?: string }).code ?? '')) throw e;
    } finally {
      client.release(doubt);
    }
  }
}
