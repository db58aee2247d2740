import { createTestDatabase } from '@platform/testkit';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, type Pool } from '../src';

export const silentLog = createLogger({ name: 'test', level: 'silent' });

/** A fresh database with the kit's tables. */
export async function kitDatabase(prefix: string): Promise<Pool> {
  const pool = createPool({ url: await createTestDatabase(prefix), log: silentLog, size: 30 });
  await migrate(pool, [KIT_MIGRATIONS_DIR], silentLog);
  return pool;
}
