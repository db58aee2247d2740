import { randomUUID } from 'node:crypto';
import type { MerchantsPort } from '../../src/shared/ports';
import { failureOf, merchantRequest, providerInput, providerSecret, startPayments, type RunningPayments, merchantsPortOf } from '../support/payments';

let running: RunningPayments;
let directory: MerchantsPort;

beforeAll(async () => {
  running = await startPayments();
  directory = merchantsPortOf(running);
});

afterAll(async () => {
  await running.stop();
});

describe('MerchantsPort.loadForCharge', () => {
  it('answers the providers by priority with their credentials opened, antifraud included', async () => {
    const clientId = randomUUID();
    const secrets = [providerSecret(), providerSecret(), providerSecret()];
    const merchant = await running.client.createMerchant(
      merchantRequest(clientId, {
        mcc: '5999',
        providers: [
          providerInput({ name: 'third', priority: 3, credentials: { type: 'SUBACQUIRER', key: secrets[2] }, options: { timeoutMs: 100 } }),
          providerInput({ name: 'first', priority: 1, credentials: { type: 'SANDBOX', key: secrets[0] } }),
          providerInput({ name: 'antifraud', priority: 2, credentials: { type: 'SANDBOX_ANTIFRAUD', key: secrets[1] } }),
        ],
      }),
    );
    const loaded = await directory.loadForCharge(running.pool, clientId, merchant.id, 'credit');
    expect(loaded).toEqual({
      id: merchant.id,
      clientId,
      mcc: '5999',
      platformFeeEnabled: false,
      platformFeeRules: [],
      providers: [
        { id: expect.any(String), merchantId: merchant.id, name: 'first', priority: 1, type: 'SANDBOX', credentials: { type: 'SANDBOX', key: secrets[0] }, options: {} },
        { id: expect.any(String), merchantId: merchant.id, name: 'antifraud', priority: 2, type: 'SANDBOX_ANTIFRAUD', credentials: { type: 'SANDBOX_ANTIFRAUD', key: secrets[1] }, options: {} },
        {
          id: expect.any(String),
          merchantId: merchant.id,
          name: 'third',
          priority: 3,
          type: 'SUBACQUIRER',
          credentials: { type: 'SUBACQUIRER', key: secrets[2] },
          options: { timeoutMs: 100 },
        },
      ],
    });
    expect(loaded.flow).toBeUndefined();
  });

  it('answers the flow of the payment method of the charge only', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant(merchantRequest(clientId, { providers: [providerInput({ priority: 1 }), providerInput({ name: 'b', priority: 2 })] }));
    const [a, b] = merchant.providers;
    const credit = await running.client.createFlow({
      clientId,
      merchantId: merchant.id,
      name: 'credit',
      paymentMethod: 'credit',
      rules: [{ when: { amountGte: 1000, cardBrand: 'visa' }, route: [b!.id, a!.id] }],
      defaultRoute: [a!.id],
    });
    const debit = await running.client.createFlow({ clientId, merchantId: merchant.id, name: 'debit', paymentMethod: 'debit', rules: [], defaultRoute: [b!.id] });
    expect((await directory.loadForCharge(running.pool, clientId, merchant.id, 'credit')).flow).toEqual({
      id: credit.id,
      rules: [{ when: { amountGte: 1000, cardBrand: 'visa' }, route: [b!.id, a!.id] }],
      defaultRoute: [a!.id],
    });
    expect((await directory.loadForCharge(running.pool, clientId, merchant.id, 'debit')).flow).toEqual({ id: debit.id, rules: [], defaultRoute: [b!.id] });
    expect((await directory.loadForCharge(running.pool, clientId, merchant.id, 'pix')).flow).toBeUndefined();
  });

  it('answers not_found for unknown, malformed, foreign and deleted merchants', async () => {
    const clientId = randomUUID();
    const foreign = await running.client.createMerchant(merchantRequest(randomUUID()));
    const deleted = await running.client.createMerchant(merchantRequest(clientId));
    await running.client.deleteMerchant({ clientId, id: deleted.id });
    for (const id of [randomUUID(), 'bad', foreign.id, deleted.id]) {
      expect((await failureOf(directory.loadForCharge(running.pool, clientId, id, 'credit'))).kind).toBe('not_found');
    }
  });
});
