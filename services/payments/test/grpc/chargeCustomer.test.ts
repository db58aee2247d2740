import { randomUUID } from 'node:crypto';
import type { customers } from '@platform/contracts';
import { AppError, errors, type PromiseClient } from '@platform/kit';
import { createCustomersPort } from '../../src/shared/customersPort';
import {
  cardCharge,
  cardNumberEnding,
  chargeCount,
  chargeEventsOf,
  createMerchant,
  failureOf,
  inlineCard,
  paymentSource,
  pixCharge,
  startCharges,
  type RunningCharges,
} from '../support/charges';
import { FakeCustomers } from '../support/customers';

// Only the customers added to the directory exist, each for its own client.
const directory = new FakeCustomers({ strict: true });
let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges({}, { customers: directory });
});

afterAll(async () => {
  await running.stop();
});

async function providerRequestCount(clientId: string): Promise<number> {
  const { rows } = await running.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM transaction_requests r JOIN charges c ON c.id = r.charge_id WHERE c.client_id = $1',
    [clientId],
  );
  return rows[0]!.n;
}

describe("CreateCharge: the charge's customer is the caller's", () => {
  it('charges with a customer of the caller, after asking the customers service about it', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const customerId = directory.add(clientId, randomUUID());
    const bySource = await running.client.createCharge(pixCharge(clientId, merchant.id, { paymentSource: paymentSource({ sourceType: 'customer', customerId }) }));
    expect(bySource).toMatchObject({ status: 'pending', customerId, paymentSource: { sourceType: 'customer', customerId } });
    const topLevel = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { customerId }));
    expect(topLevel).toMatchObject({ status: 'authorized', customerId });
    expect(directory.asked.filter((q) => q.clientId === clientId)).toEqual([
      { clientId, customerId },
      { clientId, customerId },
    ]);
  });

  it('does not ask about a charge that names no customer', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge.customerId).toBe('');
    expect(directory.asked.filter((q) => q.clientId === clientId)).toEqual([]);
  });

  it.each([
    ['paymentSource.customerId', (customerId: string) => ({ paymentSource: paymentSource({ sourceType: 'customer', customerId }) })],
    ['customerId', (customerId: string) => ({ customerId, paymentSource: paymentSource({ sourceType: 'customer', customer: { name: 'Ana Lima' } }) })],
  ])("answers not_found for another client's customer in %s, storing nothing and asking no provider", async (_field, named) => {
    const owner = randomUUID();
    const foreign = directory.add(owner, randomUUID());
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const error = await failureOf(running.client.createCharge(pixCharge(clientId, merchant.id, named(foreign))));
    expect(error).toMatchObject({ kind: 'not_found', key: 'not_found', message: 'Customer not found' });
    expect(await chargeCount(running.pool, clientId)).toBe(0);
    expect(await providerRequestCount(clientId)).toBe(0);
    expect(await chargeEventsOf(running.pool, clientId)).toEqual([]);
  });

  it('answers not_found for a customer that does not exist, and leaves the card token unused', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const token = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')) });
    const request = cardCharge(clientId, merchant.id, '', {
      customerId: randomUUID(),
      paymentSource: paymentSource({ sourceType: 'token', tokenId: token.tokenId }),
    });
    const idempotencyKey = randomUUID();
    const error = await failureOf(running.client.createCharge(request, { idempotencyKey }));
    expect(error).toMatchObject({ kind: 'not_found', message: 'Customer not found' });
    expect(await chargeCount(running.pool, clientId)).toBe(0);

    // The token was not used up: once the customer exists, the same request charges with it.
    directory.add(clientId, request.customerId);
    const charge = await running.client.createCharge(request, { idempotencyKey: randomUUID() });
    expect(charge).toMatchObject({ status: 'authorized', customerId: request.customerId, paymentSource: { sourceType: 'token' } });
  });
});

describe('CreateCharge while the customers service does not answer', () => {
  it('answers 503 without keeping the key, so the retry with the same key charges once', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const customerId = directory.add(clientId, randomUUID());
    const request = cardCharge(clientId, merchant.id, cardNumberEnding('1'), { customerId });
    const idempotencyKey = randomUUID();
    directory.down = 1;
    expect((await failureOf(running.client.createCharge(request, { idempotencyKey }))).kind).toBe('unavailable');
    expect(await chargeCount(running.pool, clientId)).toBe(0);
    expect(await providerRequestCount(clientId)).toBe(0);
    const charge = await running.client.createCharge(request, { idempotencyKey });
    expect(charge).toMatchObject({ status: 'authorized', customerId });
    expect((await running.client.createCharge(request, { idempotencyKey })).id).toBe(charge.id);
    expect(await chargeCount(running.pool, clientId)).toBe(1);
  });
});

describe('the customers port over gRPC', () => {
  function clientAnswering(getCustomer: (request: customers.GetCustomerRequest) => Promise<customers.Customer>) {
    const asked: customers.GetCustomerRequest[] = [];
    const client = {
      getCustomer: (request: customers.GetCustomerRequest) => {
        asked.push(request);
        return getCustomer(request);
      },
    } as unknown as PromiseClient<typeof customers.CustomersServiceService>;
    return { client, asked };
  }

  it('asks GetCustomer scoped by the caller', async () => {
    const { client, asked } = clientAnswering(async (request) => ({ id: request.id, clientId: request.clientId }) as customers.Customer);
    await createCustomersPort(client).requireCustomer('client-a', 'customer-1');
    expect(asked).toEqual([{ clientId: 'client-a', id: 'customer-1' }]);
  });

  it('answers the same not_found for an unknown and a foreign customer, and passes other failures on', async () => {
    const missing = clientAnswering(async (request) => {
      throw errors.notFound('Customer', request.id);
    });
    const error = await failureOf(createCustomersPort(missing.client).requireCustomer('client-a', 'customer-1'));
    expect(error).toMatchObject({ kind: 'not_found', key: 'not_found', message: 'Customer not found' });

    const down = clientAnswering(async () => {
      throw new AppError('unavailable', 'A platform service is unavailable');
    });
    expect((await failureOf(createCustomersPort(down.client).requireCustomer('client-a', 'customer-1'))).kind).toBe('unavailable');
  });
});
