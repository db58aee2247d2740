import { randomUUID } from 'node:crypto';
import { toMerchantJson } from '@platform/api-model';
import { failureOf, merchantRequest, outboxOf, startPayments, type RunningPayments, merchantsPortOf } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

async function newMerchant(clientId = randomUUID()) {
  return running.client.createMerchant(merchantRequest(clientId));
}

describe('GetPlatformFee', () => {
  it('answers a new merchant with the fee disabled and no rules', async () => {
    const merchant = await newMerchant();
    expect(await running.client.getPlatformFee({ clientId: merchant.clientId, merchantId: merchant.id })).toEqual({
      merchantId: merchant.id,
      platformFeeEnabled: false,
      rules: [],
    });
  });

  it('answers not_found for unknown, malformed and foreign merchants', async () => {
    const foreign = await newMerchant();
    for (const merchantId of [randomUUID(), 'bad', foreign.id]) {
      expect((await failureOf(running.client.getPlatformFee({ clientId: randomUUID(), merchantId }))).kind).toBe('not_found');
    }
  });
});

describe('ReplacePlatformFee', () => {
  it('replaces the whole rule list', async () => {
    const merchant = await newMerchant();
    const { clientId, id: merchantId } = merchant;
    const first = await running.client.replacePlatformFee({
      clientId,
      merchantId,
      rules: [
        { paymentMethod: 'credit', percentage: 250, installment: 1 },
        { paymentMethod: 'credit', percentage: 300, fixedAmount: 10, installment: 12 },
        { paymentMethod: 'default', fixedAmount: 0 },
      ],
    });
    expect(first).toEqual({
      merchantId,
      platformFeeEnabled: false,
      rules: [
        { paymentMethod: 'credit', percentage: 250, installment: 1 },
        { paymentMethod: 'credit', percentage: 300, fixedAmount: 10, installment: 12 },
        { paymentMethod: 'default', fixedAmount: 0 },
      ],
    });
    const second = await running.client.replacePlatformFee({ clientId, merchantId, rules: [{ paymentMethod: 'PIX', percentage: 99 }] });
    expect(second.rules).toEqual([{ paymentMethod: 'pix', percentage: 99 }]);
    expect(await running.client.getPlatformFee({ clientId, merchantId })).toEqual(second);
    const loaded = await merchantsPortOf(running).loadForCharge(running.pool, clientId, merchantId, 'pix');
    expect(loaded.platformFeeRules).toEqual([{ paymentMethod: 'pix', percentage: 99 }]);
    expect((await running.client.replacePlatformFee({ clientId, merchantId, rules: [] })).rules).toEqual([]);
  });

  it('names each invalid rule field and keeps the rules it had', async () => {
    const merchant = await newMerchant();
    const { clientId, id: merchantId } = merchant;
    await running.client.replacePlatformFee({ clientId, merchantId, rules: [{ paymentMethod: 'boleto', fixedAmount: 100 }] });
    const error = await failureOf(
      running.client.replacePlatformFee({
        clientId,
        merchantId,
        rules: [
          { paymentMethod: 'credit', percentage: 10_001 },
          { paymentMethod: 'crypto', fixedAmount: -5 },
          { paymentMethod: 'voucher' },
          { paymentMethod: 'debit', percentage: 1, installment: 30 },
        ],
      }),
    );
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field).sort()).toEqual(['rules.0.percentage', 'rules.1.fixedAmount', 'rules.1.paymentMethod', 'rules.2', 'rules.3.installment']);
    expect((await running.client.getPlatformFee({ clientId, merchantId })).rules).toEqual([{ paymentMethod: 'boleto', fixedAmount: 100 }]);
  });

  it('refuses two rules for the same payment method and installment', async () => {
    const merchant = await newMerchant();
    const error = await failureOf(
      running.client.replacePlatformFee({
        clientId: merchant.clientId,
        merchantId: merchant.id,
        rules: [
          { paymentMethod: 'credit', percentage: 1, installment: 2 },
          { paymentMethod: 'credit', percentage: 2, installment: 2 },
        ],
      }),
    );
    expect(error.details?.map((d) => d.field)).toEqual(['rules.1']);
  });

  it('writes payments.merchant.updated with the merchant as the API shows it', async () => {
    const merchant = await newMerchant();
    await running.client.replacePlatformFee({ clientId: merchant.clientId, merchantId: merchant.id, rules: [{ paymentMethod: 'credit', percentage: 5 }] });
    const events = await outboxOf(running.pool, merchant.clientId);
    expect(events.map((e) => e.subject)).toEqual(['payments.merchant.created', 'payments.merchant.updated']);
    expect(events[1]!.payload.data).toEqual(toMerchantJson(await running.client.getMerchant({ clientId: merchant.clientId, id: merchant.id })));
  });

  it("answers not_found for another client's merchant and changes nothing", async () => {
    const merchant = await newMerchant();
    const error = await failureOf(running.client.replacePlatformFee({ clientId: randomUUID(), merchantId: merchant.id, rules: [{ paymentMethod: 'pix', percentage: 1 }] }));
    expect(error.kind).toBe('not_found');
    expect((await running.client.getPlatformFee({ clientId: merchant.clientId, merchantId: merchant.id })).rules).toEqual([]);
  });
});

describe('SetPlatformFeeEnabled', () => {
  it('turns the fee on and off, keeping the rules', async () => {
    const merchant = await newMerchant();
    const { clientId, id: merchantId } = merchant;
    await running.client.replacePlatformFee({ clientId, merchantId, rules: [{ paymentMethod: 'credit', percentage: 5 }] });
    const on = await running.client.setPlatformFeeEnabled({ clientId, merchantId, enabled: true });
    expect(on).toEqual({ merchantId, platformFeeEnabled: true, rules: [{ paymentMethod: 'credit', percentage: 5 }] });
    expect((await running.client.getMerchant({ clientId, id: merchantId })).platformFeeEnabled).toBe(true);
    expect((await merchantsPortOf(running).loadForCharge(running.pool, clientId, merchantId, 'credit')).platformFeeEnabled).toBe(true);
    const off = await running.client.setPlatformFeeEnabled({ clientId, merchantId, enabled: false });
    expect(off.platformFeeEnabled).toBe(false);
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual([
      'payments.merchant.created',
      'payments.merchant.updated',
      'payments.merchant.updated',
      'payments.merchant.updated',
    ]);
  });

  it('answers not_found for unknown, malformed and foreign merchants', async () => {
    const foreign = await newMerchant();
    for (const merchantId of [randomUUID(), 'bad', foreign.id]) {
      expect((await failureOf(running.client.setPlatformFeeEnabled({ clientId: randomUUID(), merchantId, enabled: true }))).kind).toBe('not_found');
    }
    expect((await running.client.getPlatformFee({ clientId: foreign.clientId, merchantId: foreign.id })).platformFeeEnabled).toBe(false);
  });
});
