import { ProviderUnavailableError } from '../../src/modules/connectors/domain/types';
import { randomUUID } from 'node:crypto';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import {
  boletoCharge,
  cardCharge,
  cardNumberEnding,
  chargeCount,
  createMerchant,
  failureOf,
  inlineCard,
  paymentMethod,
  paymentSource,
  pixCharge,
  providerIdOf,
  requestSummary,
  startCharges,
  type RunningCharges,
} from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('CreateCharge: card outcomes and failover', () => {
  it('authorizes a card ending 1 on the first provider', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const number = cardNumberEnding('1');
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, number, { amount: 2500 }));
    expect(charge).toMatchObject({
      clientId,
      merchantId: merchant.id,
      status: 'authorized',
      amount: 2500,
      originalAmount: 2500,
      capturedAmount: 2500,
      refundedAmount: 0,
      currency: 'BRL',
      capture: true,
      declinedCode: '',
      providerId: providerIdOf(merchant, 'first'),
      providerType: 'SANDBOX',
      providerName: 'first',
      paymentSource: {
        sourceType: 'card',
        brand: 'visa',
        first6digits: number.slice(0, 6),
        last4digits: number.slice(-4),
        cardHolderName: 'Maria Souza',
        cvvChecked: false,
      },
    });
    expect(charge.transactionRequests).toHaveLength(1);
    expect(charge.transactionRequests[0]).toMatchObject({
      idempotencyKey: `${charge.id}:authorization:1`,
      providerId: providerIdOf(merchant, 'first'),
      providerType: 'SANDBOX',
      requestType: 'authorization',
      requestStatus: 'success',
      amount: 2500,
      transactionId: expect.stringMatching(/^sbx_/),
      authorizationNsu: expect.stringMatching(/^\d{9}$/),
      responseTs: expect.stringMatching(/^\d+$/),
      providerAuthorization: { networkAuthorizationCode: expect.stringMatching(/^[0-9A-F]{6}$/), networkResponseCode: '00' },
    });
    expect(await running.client.getCharge({ clientId, id: charge.id })).toEqual(charge);
  });

  it('fails over a card ending 6 from the first provider, which times out, to the second', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'second', priority: 2 },
      { name: 'first', priority: 1 },
    ]);
    // Every SANDBOX provider lets a card ending 6 time out, so the second one (told apart by its attempt's key) is
    // made to see a good card, as a provider that is up would answer.
    const original = SandboxProvider.prototype.authorize;
    jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation(function (this: SandboxProvider, request, call) {
      if (call.idempotencyKey.endsWith(':authorization:2')) return original.call(this, { ...request, card: { ...request.card!, number: cardNumberEnding('1') } }, call);
      return original.call(this, request, call);
    });
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('6')));
    expect(charge.status).toBe('authorized');
    expect(charge.providerId).toBe(providerIdOf(merchant, 'second'));
    expect(requestSummary(charge)).toEqual([
      { type: 'authorization', status: 'failed', amount: 1000, providerId: providerIdOf(merchant, 'first') },
      { type: 'authorization', status: 'success', amount: 1000, providerId: providerIdOf(merchant, 'second') },
    ]);
    const [timedOut, approved] = charge.transactionRequests;
    expect(timedOut!.message).toMatch(/no answer within 200 ms/);
    expect(timedOut!.idempotencyKey).toBe(`${charge.id}:authorization:1`);
    expect(approved!.idempotencyKey).toBe(`${charge.id}:authorization:2`);
    expect(timedOut!.createdAt!.getTime()).toBeLessThanOrEqual(approved!.createdAt!.getTime());
  });

  it('fails a card ending 6 with try_again when every provider times out', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('6')));
    expect(charge).toMatchObject({ status: 'failed', declinedCode: 'try_again', providerId: providerIdOf(merchant, 'second') });
    expect(requestSummary(charge).map((r) => r.status)).toEqual(['failed', 'failed']);
  });

  it('does not fail over a business decline (card ending 2)', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('02')));
    expect(charge).toMatchObject({ status: 'failed', declinedCode: 'insufficient_funds', capturedAmount: 0, providerId: providerIdOf(merchant, 'first') });
    expect(charge.transactionRequests).toHaveLength(1);
    expect(charge.transactionRequests[0]).toMatchObject({
      requestStatus: 'declined',
      declinedCode: 'insufficient_funds',
      providerAuthorization: { networkResponseCode: '51' },
    });
  });

  it('fails over an issuer that is not available and keeps its code when nobody else answers', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const issuerDown = { status: 'declined', declinedCode: 'issuer_not_available', message: 'issuer down', transactionId: 'sbx_x' } as const;
    jest.spyOn(SandboxProvider.prototype, 'authorize').mockResolvedValue(issuerDown);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge).toMatchObject({ status: 'failed', declinedCode: 'issuer_not_available' });
    expect(charge.transactionRequests.map((r) => [r.requestStatus, r.declinedCode])).toEqual([
      ['failed', 'issuer_not_available'],
      ['failed', 'issuer_not_available'],
    ]);
  });

  it('fails over a provider that throws (unreachable)', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const original = SandboxProvider.prototype.authorize;
    jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation(function (this: SandboxProvider, request, call) {
      if (call.idempotencyKey.endsWith(':authorization:1')) return Promise.reject(new ProviderUnavailableError('ECONNREFUSED'));
      return original.call(this, request, call);
    });
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('4')));
    expect(charge.status).toBe('authorized');
    expect(charge.transactionRequests.map((r) => r.requestStatus)).toEqual(['failed', 'success']);
    expect(charge.transactionRequests[0]!.message).toMatch(/unavailable: ECONNREFUSED/);
  });

  it.each([
    ['3', 'expired_card'],
    ['5', 'restricted_card'],
    ['22', 'invalid_cvv'],
    ['32', 'lost_card'],
  ])('declines a card ending %s with %s', async (suffix, code) => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding(suffix)));
    expect(charge).toMatchObject({ status: 'failed', declinedCode: code });
  });

  it('creates a card ending 7 canceled', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('7')));
    expect(charge).toMatchObject({ status: 'canceled', declinedCode: '' });
    expect(charge.transactionRequests[0]!.requestStatus).toBe('declined');
  });

  it('pre-authorizes when capture is false, and marks a CVV ending 0 as checked', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(
      cardCharge(clientId, merchant.id, '', { capture: false, paymentSource: paymentSource({ card: inlineCard(cardNumberEnding('0'), '470') }) }),
    );
    expect(charge).toMatchObject({ status: 'pre_authorized', capture: false, capturedAmount: 0, paymentSource: { cvvChecked: true } });
  });

  it('routes by the merchant flow for the payment method', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
      { name: 'third', priority: 3 },
    ]);
    await running.client.createFlow({
      clientId,
      merchantId: merchant.id,
      name: 'credit routing',
      paymentMethod: 'credit',
      rules: [
        { when: { amountGte: 100_000 }, route: [providerIdOf(merchant, 'third'), providerIdOf(merchant, 'first')] },
        { when: { cardBrand: 'mastercard' }, route: [providerIdOf(merchant, 'second')] },
      ],
      defaultRoute: [providerIdOf(merchant, 'second'), providerIdOf(merchant, 'third')],
    });
    const big = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 150_000 }));
    expect(big.providerId).toBe(providerIdOf(merchant, 'third'));
    const master = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1', '555555')));
    expect(master.providerId).toBe(providerIdOf(merchant, 'second'));
    const small = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('6')));
    expect(small.transactionRequests.map((r) => r.providerId)).toEqual([providerIdOf(merchant, 'second'), providerIdOf(merchant, 'third')]);
    // A flow for another payment method leaves Pix on plain priority.
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    expect(pix.providerId).toBe(providerIdOf(merchant, 'first'));
  });
});

describe('CreateCharge: sources', () => {
  it('charges a saved card by cardId and a single-use token', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const number = cardNumberEnding('4');
    const token = await running.client.createToken({ clientId, card: inlineCard(number) });
    const tokenSource = paymentSource({ sourceType: 'token', tokenId: token.tokenId });
    const byToken = await running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: tokenSource }));
    expect(byToken).toMatchObject({ status: 'authorized', paymentSource: { sourceType: 'token', last4digits: number.slice(-4) } });
    const reused = await failureOf(
      running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ sourceType: 'token', tokenId: token.tokenId }) })),
    );
    expect(reused.kind).toBe('not_found');

    const second = await running.client.createToken({ clientId, card: inlineCard(number) });
    const card = await running.client.createCard({ clientId, tokenId: second.tokenId, merchantId: '', cvvCheck: false });
    const byCard = await running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ cardId: card.id }) }));
    expect(byCard).toMatchObject({ status: 'authorized', paymentSource: { sourceType: 'card', cardId: card.id, brand: 'visa' } });

    const customerId = randomUUID();
    const byCustomer = await running.client.createCharge(
      cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ sourceType: 'customer', customerId, cardId: card.id }) }),
    );
    expect(byCustomer).toMatchObject({ status: 'authorized', customerId, paymentSource: { sourceType: 'customer', customerId, cardId: card.id } });
  });

  it('answers not_found for a card of another client', async () => {
    const owner = randomUUID();
    const token = await running.client.createToken({ clientId: owner, card: inlineCard(cardNumberEnding('1')) });
    const card = await running.client.createCard({ clientId: owner, tokenId: token.tokenId, merchantId: '', cvvCheck: false });
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const error = await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ cardId: card.id }) })));
    expect(error.kind).toBe('not_found');
    expect(await chargeCount(running.pool, clientId)).toBe(0);
  });

  it('keeps an inline customer on the charge', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(
      pixCharge(clientId, merchant.id, { paymentSource: paymentSource({ sourceType: 'customer', customer: { name: 'Ana Lima', email: 'ana@example.test' } }) }),
    );
    expect(charge.customerId).toBe('');
    expect(charge.paymentSource).toMatchObject({ sourceType: 'customer', customer: { name: 'Ana Lima', email: 'ana@example.test' } });
  });

  it('answers payment_source_not_supported for a wallet', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const wallet = paymentSource({ sourceType: 'wallet', wallet: { type: 'apple_pay' } });
    const error = await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: wallet })));
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'payment_source_not_supported' });
  });
});

describe('CreateCharge: refusals before any provider', () => {
  it('answers card_declined invalid_number and expired_card, and stores nothing', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const spy = jest.spyOn(SandboxProvider.prototype, 'authorize');
    const badNumber = await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, '4111111111111112')));
    expect(badNumber).toMatchObject({ kind: 'card_declined', declinedCode: 'invalid_number' });
    const expired = await failureOf(
      running.client.createCharge(
        cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ card: { ...inlineCard(cardNumberEnding('1')), cardExpirationDate: '01/2020' } }) }),
      ),
    );
    expect(expired).toMatchObject({ kind: 'card_declined', declinedCode: 'expired_card' });
    expect(spy).not.toHaveBeenCalled();
    expect(await chargeCount(running.pool, clientId)).toBe(0);
  });

  it('answers validation with a detail per field', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const error = await failureOf(
      running.client.createCharge(
        cardCharge(clientId, merchant.id, cardNumberEnding('1'), {
          amount: 0,
          currency: 'XX',
          paymentMethod: paymentMethod({ installments: 30 }),
        }),
      ),
    );
    expect(error.kind).toBe('validation');
    expect((error.details ?? []).map((d) => d.field).sort()).toEqual(['amount', 'currency', 'paymentMethod.installments']);
  });

  it('answers not_found for a merchant of another client', async () => {
    const merchant = await createMerchant(running.client, randomUUID());
    const error = await failureOf(running.client.createCharge(cardCharge(randomUUID(), merchant.id, cardNumberEnding('1'))));
    expect(error.kind).toBe('not_found');
  });
});

describe('CreateCharge: Pix and boleto', () => {
  it('creates a Pix pending with its QR code', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const before = running.clock.now();
    const charge = await running.client.createCharge(
      pixCharge(clientId, merchant.id, { amount: 4990, paymentMethod: paymentMethod({ paymentType: 'pix', expiresIn: 900 }) }),
    );
    expect(charge).toMatchObject({ status: 'pending', amount: 4990, capturedAmount: 0, paymentMethod: { paymentType: 'pix', expiresIn: 900 } });
    expect(charge.paymentMethod!.qrCodeData).toMatch(/^000201.*br\.gov\.bcb\.pix.*540549\.90.*6304[0-9A-F]{4}$/);
    expect(charge.paymentMethod!.qrCodeImageUrl).toMatch(/^https:\/\/pay\.example\.test\/v1\/sandbox\/pix\/sbx_[0-9a-f]+\.png$/);
    const expiresAt = charge.paymentMethod!.expiresAt!.getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before.getTime() + 900_000);
    expect(expiresAt).toBeLessThanOrEqual(running.clock.now().getTime() + 900_000);
    expect(charge.paymentSource).toMatchObject({ sourceType: 'customer', brand: '' });
  });

  it('creates a boleto pending with bar code, digitable line and due date', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const charge = await running.client.createCharge(boletoCharge(clientId, merchant.id, due, { amount: 15_000 }));
    expect(charge).toMatchObject({ status: 'pending', paymentMethod: { paymentType: 'boleto', expiresDate: due, instructions: 'Não receber após o vencimento' } });
    expect(charge.paymentMethod!.barcodeData).toMatch(/^\d{44}$/);
    expect(charge.paymentMethod!.barcodeData.slice(9, 19)).toBe('0000015000');
    expect(charge.paymentMethod!.digitableLine).toMatch(/^\d{47}$/);
    expect(charge.paymentMethod!.barcodeImageUrl).toMatch(/\/v1\/sandbox\/boleto\/sbx_[0-9a-f]+\.png$/);
  });

  it('creates a voucher pending, paid with a benefit card', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { paymentMethod: paymentMethod({ paymentType: 'voucher' }) }));
    expect(charge).toMatchObject({ status: 'pending', paymentMethod: { paymentType: 'voucher' }, paymentSource: { brand: 'visa' } });
  });

  it('refuses a boleto due in the past', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const error = await failureOf(running.client.createCharge(boletoCharge(clientId, merchant.id, '2020-01-01')));
    expect(error.details).toEqual([{ field: 'paymentMethod.expiresDate', message: 'must not be in the past' }]);
  });
});

describe('CreateCharge: split and platform fee', () => {
  it('keeps split rules and computes the platform fee from the merchant rule', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    await running.client.replacePlatformFee({
      clientId,
      merchantId: merchant.id,
      rules: [
        { paymentMethod: 'credit', percentage: 150, fixedAmount: 25 },
        { paymentMethod: 'default', fixedAmount: 10 },
      ],
    });
    const sellerA = randomUUID();
    const sellerB = randomUUID();
    const splitRules = [
      { sellerId: sellerA, percentage: 7000, processingFee: true, chargeRemainderFee: true, liable: true },
      { sellerId: sellerB, amount: 3000, processingFee: false, chargeRemainderFee: false, liable: false },
    ];
    const disabled = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 10_000, splitRules }));
    expect(disabled.platformFee).toBeUndefined();
    expect(disabled.splitRules).toEqual([
      { sellerId: sellerA, percentage: 7000, processingFee: true, chargeRemainderFee: true, liable: true },
      { sellerId: sellerB, amount: 3000, processingFee: false, chargeRemainderFee: false, liable: false },
    ]);

    await running.client.setPlatformFeeEnabled({ clientId, merchantId: merchant.id, enabled: true });
    const withFee = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 10_000, splitRules }));
    expect(withFee.platformFee).toEqual({ amount: 175, percentage: 150, fixedAmount: 25 });
    const withoutSplit = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 10_000 }));
    expect(withoutSplit.platformFee).toBeUndefined();
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 10_000, splitRules }));
    expect(pix.platformFee).toEqual({ amount: 10, fixedAmount: 10 });
  });

  it('refuses shares that do not add up to the amount', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const error = await failureOf(
      running.client.createCharge(
        cardCharge(clientId, merchant.id, cardNumberEnding('1'), {
          amount: 10_000,
          splitRules: [{ sellerId: randomUUID(), amount: 9_999, processingFee: false, chargeRemainderFee: false, liable: false }],
        }),
      ),
    );
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'splitRules', message: 'shares must add up to the charge amount' }]);
  });
});

describe('CreateCharge: idempotency', () => {
  it('charges once for 20 concurrent requests with one idempotency key', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const counting = jest.spyOn(SandboxProvider.prototype, 'authorize');
    const request = cardCharge(clientId, merchant.id, cardNumberEnding('1'));
    const idempotencyKey = randomUUID();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => running.client.createCharge(request, { idempotencyKey })));
    const charged = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { kind: string; key?: string }] : []));
    expect(charged.length).toBeGreaterThanOrEqual(1);
    expect(new Set(charged.map((c) => c.id)).size).toBe(1);
    for (const error of refused) expect(error).toMatchObject({ kind: 'conflict', key: 'idempotency_request_in_progress' });
    expect(counting).toHaveBeenCalledTimes(1);
    expect(await chargeCount(running.pool, clientId)).toBe(1);

    const replay = await running.client.createCharge(request, { idempotencyKey });
    expect(replay).toEqual(charged[0]);
    expect(counting).toHaveBeenCalledTimes(1);
  });

  it('refuses the same key with another body, and replays a decline', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const idempotencyKey = randomUUID();
    const declined = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('5')), { idempotencyKey });
    const other = await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')), { idempotencyKey }));
    expect(other).toMatchObject({ kind: 'business_rule', businessCode: 'idempotency_key_reused' });
    expect(declined.status).toBe('failed');
    expect(await chargeCount(running.pool, clientId)).toBe(1);
  });
});
