import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, createPool, isUniqueViolation, KIT_MIGRATIONS_DIR, migrate, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';

const log = createLogger({ name: 'customers-card-owner-test', level: 'silent' });
const MIGRATIONS = path.join(__dirname, '..', '..', 'migrations');
let pool: Pool;
let before: string;

/** The database as it was before a card had one customer only: the first two migrations of the service. */
beforeAll(async () => {
  pool = createPool({ url: await createTestDatabase('customers_card_owner'), log });
  before = mkdtempSync(path.join(tmpdir(), 'customers-before-'));
  // The same folder name as the real one, so that the migrations applied here count as the service's.
  const dir = path.join(before, 'customers', 'migrations');
  mkdirSync(dir, { recursive: true });
  for (const file of ['001_customers.sql', '002_customer_cards.sql']) copyFileSync(path.join(MIGRATIONS, file), path.join(dir, file));
  await migrate(pool, [KIT_MIGRATIONS_DIR, dir], log);
});

afterAll(async () => {
  await pool.end();
  rmSync(before, { recursive: true, force: true });
});

async function customer(clientId: string): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO customers (id, client_id, name, email, phone_number, document_type, document_number, document_country, created_at, updated_at)
     VALUES ($1, $2, 'Ana', $3, '+55 11 99999-0000', 'cpf', '12345678909', 'BR', now(), now())`,
    [id, clientId, `${id}@example.com`],
  );
  return id;
}

const link = (clientId: string, customerId: string, cardId: string, at: string) =>
  pool.query('INSERT INTO customer_cards (client_id, customer_id, card_id, created_at) VALUES ($1, $2, $3, $4)', [clientId, customerId, cardId, at]);

describe('migration 003: a card has one customer', () => {
  it('keeps the newest link of a card linked twice (the owner payments knows), keeps the older one for the record, and then refuses a second customer', async () => {
    const clientId = randomUUID();
    const [first, second] = [await customer(clientId), await customer(clientId)];
    const [shared, own] = [randomUUID(), randomUUID()];
    await link(clientId, first, shared, '2026-01-01T00:00:00Z');
    await link(clientId, second, shared, '2026-02-01T00:00:00Z');
    await link(clientId, first, own, '2026-01-01T00:00:00Z');

    await migrate(pool, [KIT_MIGRATIONS_DIR, MIGRATIONS], log);

    const { rows } = await pool.query<{ customer_id: string; card_id: string }>('SELECT customer_id, card_id FROM customer_cards WHERE client_id = $1 ORDER BY card_id', [clientId]);
    expect(rows).toEqual(
      [
        { customer_id: second, card_id: shared },
        { customer_id: first, card_id: own },
      ].sort((a, b) => a.card_id.localeCompare(b.card_id)),
    );
    const superseded = await pool.query('SELECT customer_id, card_id, linked_at FROM customer_cards_superseded WHERE client_id = $1', [clientId]);
    expect(superseded.rows).toEqual([{ customer_id: first, card_id: shared, linked_at: new Date('2026-01-01T00:00:00Z') }]);

    const refused = await link(clientId, second, own, '2026-03-01T00:00:00Z').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(refused, 'customer_cards_one_customer')).toBe(true);
  });
});
