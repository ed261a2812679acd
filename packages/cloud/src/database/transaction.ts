import type pg from "pg";

/**
 * Runs `work` in one transaction on a connection of its own: committed when it returns, rolled back
 * when it throws. A `return` that gives up early commits too; that is harmless as long as nothing
 * was written before it (callers that might have written must throw instead). The rollback's own
 * failure is ignored so that the error thrown by `work` is the one the caller sees.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
