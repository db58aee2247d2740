import { randomInt, randomUUID } from 'node:crypto';
import { customers } from '@platform/contracts';
import type { Pool, PromiseClient, RunningService } from '@platform/kit';
import { startServiceWithClient } from '@platform/testkit';
import type { CardsPort } from '../../src/app/cardsPort';
import { defineCustomersService } from '../../src/service';

export type CustomersClient = PromiseClient<typeof customers.CustomersServiceService>;

export interface RunningCustomers {
  service: RunningService;
  client: CustomersClient;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startCustomers(
  options: { cards?: CardsPort; env?: NodeJS.ProcessEnv; databaseUrl?: string } = {},
): Promise<RunningCustomers & { databaseUrl: string }> {
  return startServiceWithClient(
    defineCustomersService({ cards: options.cards }),
    { definition: customers.CustomersServiceService, Client: customers.CustomersServiceClient },
    // Nothing answers here: suites about cards pass a fake cards port instead of calling payments.
    { env: { PAYMENTS_GRPC_URL: '127.0.0.1:1', ...options.env }, databaseUrl: options.databaseUrl },
  );
}

export function digits(length: number): string {
  return Array.from({ length }, () => randomInt(10)).join('');
}

export function uniqueEmail(): string {
  return `buyer.${randomUUID().slice(0, 8)}@example.com`;
}

export function customerRequest(clientId: string, overrides: Partial<customers.CreateCustomerRequest> = {}): customers.CreateCustomerRequest {
  return {
    clientId,
    name: 'Maria Souza',
    email: uniqueEmail(),
    phoneNumber: '+55 (11) 99999-0000',
    document: { type: 'cpf', number: digits(11), country: 'BR' },
    address: undefined,
    force: false,
    ...overrides,
  };
}

export { failureOf } from '@platform/testkit';

export async function outboxOf(pool: Pool, clientId: string): Promise<Array<{ id: string; subject: string; payload: { id: string; type: string; clientId: string; occurredAt: string; data: Record<string, unknown> } }>> {
  const { rows } = await pool.query(`SELECT id, subject, payload FROM outbox WHERE payload->>'clientId' = $1 ORDER BY seq`, [clientId]);
  return rows;
}

export async function customerRowsOf(pool: Pool, clientId: string): Promise<Array<{ id: string; email: string; deleted_at: Date | null }>> {
  const { rows } = await pool.query('SELECT id, email, deleted_at FROM customers WHERE client_id = $1 ORDER BY seq', [clientId]);
  return rows;
}
