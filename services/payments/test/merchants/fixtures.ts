import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { payments } from '@platform/contracts';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, type Clock, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';

/** Real time, moved forward on demand: token and card expiry can be crossed without waiting. */
export class TestClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

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

function luhnCheckDigit(partial: string): string {
  let sum = 0;
  let double = true;
  for (let i = partial.length - 1; i >= 0; i--) {
    let d = partial.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A fresh Luhn-valid number starting with `prefix`, so each test's card is its own. */
export function cardNumber(prefix = '411111', length = 16): string {
  let body = prefix;
  while (body.length < length - 1) body += String(randomInt(10));
  return body + luhnCheckDigit(body);
}

/** A Luhn-valid number with the given last digit (the SANDBOX provider reads it). */
export function cardNumberEnding(lastDigit: number, prefix = '411111', length = 16): string {
  for (;;) {
    const number = cardNumber(prefix, length);
    if (number.endsWith(String(lastDigit))) return number;
  }
}

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
