import { randomUUID } from 'node:crypto';
import { failureOf, merchantRequest, outboxOf, providerInput, providerSecret, startPayments, type RunningPayments, merchantsPortOf } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

async function merchantWithTwoProviders(clientId: string) {
  return running.client.createMerchant(
    merchantRequest(clientId, {
      providers: [providerInput({ name: 'first', priority: 1 }), providerInput({ name: 'second', priority: 2, credentials: { type: 'SUBACQUIRER', key: providerSecret() } })],
    }),
  );
}

describe('UpdateProvider', () => {
  it('changes name and priority and keeps the rest', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithTwoProviders(clientId);
    const second = merchant.providers[1]!;
    const updated = await running.client.updateProvider({ clientId, id: second.id, name: 'renamed', priority: 5 });
    expect(updated).toEqual({ ...second, name: 'renamed', priority: 5, updatedAt: expect.any(Date) });
    const reread = await running.client.getMerchant({ clientId, id: merchant.id });
    expect(reread.providers.map((p) => [p.name, p.priority])).toEqual([
      ['first', 1],
      ['renamed', 5],
    ]);
  });

  it('reseals new credentials and never answers them', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithTwoProviders(clientId);
    const provider = merchant.providers[0]!;
    const credentials = { type: 'SUBACQUIRER', apiKey: providerSecret() };
    const updated = await running.client.updateProvider({ clientId, id: provider.id, credentials });
    expect(updated.credentialsType).toBe('SUBACQUIRER');
    expect(JSON.stringify(updated)).not.toContain(credentials.apiKey);
    const loaded = await merchantsPortOf(running).loadForCharge(running.pool, clientId, merchant.id, 'credit');
    expect(loaded.providers.find((p) => p.id === provider.id)).toMatchObject({ type: 'SUBACQUIRER', credentials });
  });

  it('writes payments.provider.updated without credentials', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithTwoProviders(clientId);
    const secret = providerSecret();
    await running.client.updateProvider({ clientId, id: merchant.providers[0]!.id, credentials: { type: 'SANDBOX', apiKey: secret } });
    const events = await outboxOf(running.pool, clientId);
    expect(events.map((e) => e.subject)).toEqual(['payments.merchant.created', 'payments.provider.updated']);
    expect(events[1]!.payload.data).toMatchObject({ id: merchant.providers[0]!.id, merchantId: merchant.id, credentials: { type: 'SANDBOX' } });
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('answers conflict when another payment provider of the merchant has the priority', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithTwoProviders(clientId);
    const error = await failureOf(running.client.updateProvider({ clientId, id: merchant.providers[1]!.id, priority: 1 }));
    expect(error.kind).toBe('conflict');
    expect(error.key).toBe('provider_priority_exists');
    expect((await running.client.getMerchant({ clientId, id: merchant.id })).providers.map((p) => p.priority)).toEqual([1, 2]);
  });

  it('lets an antifraud provider share a priority, but not when it becomes a payment provider', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant(
      merchantRequest(clientId, {
        providers: [providerInput({ priority: 1 }), providerInput({ name: 'af', priority: 2, credentials: { type: 'SANDBOX_ANTIFRAUD' } })],
      }),
    );
    const antifraud = merchant.providers.find((p) => p.credentialsType === 'SANDBOX_ANTIFRAUD')!;
    expect((await running.client.updateProvider({ clientId, id: antifraud.id, priority: 1 })).priority).toBe(1);
    const error = await failureOf(running.client.updateProvider({ clientId, id: antifraud.id, credentials: { type: 'SANDBOX' } }));
    expect(error.key).toBe('provider_priority_exists');
  });

  it('lets no two concurrent updates take one priority', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant(
      merchantRequest(clientId, { providers: [1, 2, 3, 4].map((priority) => providerInput({ name: `p${priority}`, priority })) }),
    );
    const results = await Promise.allSettled(merchant.providers.map((p) => running.client.updateProvider({ clientId, id: p.id, priority: 9 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const priorities = (await running.client.getMerchant({ clientId, id: merchant.id })).providers.map((p) => p.priority);
    expect(new Set(priorities).size).toBe(4);
  });

  it('keeps a provider named by a flow a payment provider', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithTwoProviders(clientId);
    const [first, second] = merchant.providers;
    await running.client.createFlow({ clientId, merchantId: merchant.id, name: '', paymentMethod: 'credit', rules: [{ when: {}, route: [second!.id] }], defaultRoute: [first!.id] });
    const error = await failureOf(running.client.updateProvider({ clientId, id: second!.id, credentials: { type: 'SANDBOX_ANTIFRAUD' } }));
    expect(error.kind).toBe('business_rule');
    expect(error.businessCode).toBe('provider_in_flow');
  });

  it('keeps a provider named only in a branch of a split a payment provider', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithTwoProviders(clientId);
    const [first, second] = merchant.providers;
    await running.client.createFlow({
      clientId,
      merchantId: merchant.id,
      name: '',
      paymentMethod: 'credit',
      rules: [{ when: {}, route: [], split: { branches: [{ percentage: 60, route: [first!.id] }, { percentage: 40, route: [second!.id] }] } }],
      defaultRoute: [first!.id],
    });
    const error = await failureOf(running.client.updateProvider({ clientId, id: second!.id, credentials: { type: 'SANDBOX_ANTIFRAUD' } }));
    expect(error.businessCode).toBe('provider_in_flow');
  });

  it('refuses an update without any field, and invalid values', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithTwoProviders(clientId);
    const id = merchant.providers[0]!.id;
    expect((await failureOf(running.client.updateProvider({ clientId, id }))).kind).toBe('validation');
    const error = await failureOf(running.client.updateProvider({ clientId, id, name: '', priority: 0, credentials: { key: 'x' } }));
    expect(error.details?.map((d) => d.field).sort()).toEqual(['credentials.type', 'name', 'priority']);
  });

  it('answers not_found for unknown, malformed and foreign providers', async () => {
    const foreign = await merchantWithTwoProviders(randomUUID());
    const clientId = randomUUID();
    for (const id of [randomUUID(), 'nope', foreign.providers[0]!.id]) {
      expect((await failureOf(running.client.updateProvider({ clientId, id, name: 'X' }))).kind).toBe('not_found');
    }
    expect((await running.client.getMerchant({ clientId: foreign.clientId, id: foreign.id })).providers[0]!.name).toBe('first');
  });
});
