import type pg from 'pg';

/** Serialization failure and deadlock: the transaction was rolled back whole, so it can run again. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs `work` on a connection checked out of the pool. pg emits 'error' on a checked-out
 * client whose socket dies (the pool listens only to idle ones), and an 'error' event nobody
 * listens to ends the process: so one is listened to meanwhile, and the failure reaches the
 * caller through the query that fails. A client that errored, or that `work` reports in
 * doubt (its transaction or lock state unknown), is closed instead of going back to the pool.
 */
export async function withConnection<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, inDoubt: (e: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let doubt: Error | undefined;
  const inDoubt = (e: Error): void => {
    doubt ??= e;
  };
  client.on('error', inDoubt);
  try {
    return await work(client, inDoubt);
  } finally {
    client.off('error', inDoubt);
    client.release(doubt);
  }
}

/**
 * Runs `work` in one transaction on one pooled connection: committed when it returns,
 * rolled back when it throws. A transaction PostgreSQL aborted as a deadlock victim or a
 * serialization failure is run again (up to `attempts` in all). A connection whose
 * ROLLBACK fails is closed instead of going back to the pool.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await withConnection(pool, async (client, inDoubt) => {
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return { result };
      } catch (e) {
        await client.query('ROLLBACK').catch(inDoubt);
        if (attempt >= attempts || !RETRYABLE.has((e as { code?: string }).code ?? '')) throw e;
        return undefined;
      }
    });
    if (outcome) return outcome.result;
  }
}
