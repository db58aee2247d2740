import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Environment the jest global setup leaves for every test file: one PostgreSQL and one nats-server per run.
 * Each suite takes a fresh database of its own from `createTestDatabase`.
 */
export const HARNESS_ENV = {
  postgresAdminUrl: 'TEST_POSTGRES_ADMIN_URL',
  natsUrl: 'TEST_NATS_URL',
} as const;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through the root jest config (npm test)`);
  return value;
}

export function testNatsUrl(): string {
  return required(HARNESS_ENV.natsUrl);
}

/** A new, empty database on the run's PostgreSQL server; returns its URL. */
export async function createTestDatabase(prefix = 't'): Promise<string> {
  const adminUrl = required(HARNESS_ENV.postgresAdminUrl);
  const name = `${prefix.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(5).toString('hex')}`;
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
