import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { payments } from '@platform/contracts';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';

/** A migrated database of its own, for store tests. */
export async function startStoreDatabase(prefix: string): Promise<Pool> {
  const log = createLogger({ name: `${prefix}-test`, level: 'silent' });
  const pool = createPool({ url: await createTestDatabase(prefix), log });
  await migrate(pool, [KIT_MIGRATIONS_DIR, path.join(__dirname, '..', '..', 'migrations')], log);
  return pool;
}

export { failureOf } from '@platform/testkit';

export interface OutboxEvent {
  id: string;
  subject: string;
  payload: { id: string; type: string; clientId: string; occurredAt: string; data: Record<string, unknown> };
}

export async function outboxOf(pool: Pool, clientId: string): Promise<OutboxEvent[]> {
  const { rows } = await pool.query<OutboxEvent>(`SELECT id, subject, payload FROM outbox WHERE payload->>'clientId' = $1 ORDER BY seq`, [clientId]);
  return rows;
}

/** A secret no response, event or log may ever show. */
export function providerSecret(): string {
  return `sk_test_${randomBytes(12).toString('hex')}`;
}

export function providerInput(overrides: Partial<payments.ProviderInput> = {}): payments.ProviderInput {
  return {
    name: 'sandbox',
    priority: 1,
    credentials: { type: 'SANDBOX', apiKey: providerSecret() },
    options: {},
    ...overrides,
  };
}

export function merchantRequest(clientId: string, overrides: Partial<payments.CreateMerchantRequest> = {}): payments.CreateMerchantRequest {
  return {
    clientId,
    mcc: '5411',
    name: 'Loja Centro',
    merchantName: 'LOJA CENTRO',
    merchantUrl: 'https://loja.example.com',
    providers: [providerInput()],
    ...overrides,
  };
}

import { cardNumber } from '@platform/testkit';

export { cardNumber, cardNumberEnding } from '@platform/testkit';

export function futureExpiration(yearsAhead = 3): string {
  return `07/${new Date().getUTCFullYear() + yearsAhead}`;
}

export function cardInput(overrides: Partial<payments.CardInput> = {}): payments.CardInput {
  return {
    cardHolderName: 'Maria Souza',
    cardNumber: cardNumber(),
    cardCvv: String(100 + randomInt(900)),
    cardExpirationDate: futureExpiration(),
    ...overrides,
  };
}

export function newClientId(): string {
  return randomUUID();
}
