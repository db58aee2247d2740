import path from 'node:path';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';

export const SETTINGS_MIGRATIONS_DIR = path.join(__dirname, '..', '..', 'migrations');

/** A fresh database with the kit's and this service's migrations applied. */
export async function migratedPool(prefix: string): Promise<Pool> {
  const log = createLogger({ name: 'settings-test', level: 'silent' });
  const pool = createPool({ url: await createTestDatabase(prefix), log, size: 4 });
  await migrate(pool, [KIT_MIGRATIONS_DIR, SETTINGS_MIGRATIONS_DIR], log);
  return pool;
}

export async function outboxEvents(pool: Pool, clientId: string, type?: string): Promise<Array<{ type: string; clientId: string; data: Record<string, unknown> }>> {
  const { rows } = await pool.query<{ payload: { type: string; clientId: string; data: Record<string, unknown> } }>(
    `SELECT payload FROM outbox WHERE payload->>'clientId' = $1 AND ($2::text IS NULL OR subject = $2) ORDER BY seq`,
    [clientId, type ?? null],
  );
  return rows.map((r) => r.payload);
}
