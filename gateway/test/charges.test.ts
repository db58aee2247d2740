import { CHARGE_LIMITS } from '@platform/api-model';
import type { payments } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, LIVE_KEY, upstreamCalls } from './helpers';
import {
  CARD_ID,
  CHARGE_ID,
  emptyMeta,
  MERCHANT_ID,
  meta,
  PROVIDER_ID,
  sampleCharge,
  sampleTransactionRequest,
  SELLER_ID,
  TOKEN_ID,
} from './paymentSamples';

const CUSTOMER_ID = '0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11';

const chargeJson = {
  id: CHARGE_ID,
  clientId: CLIENT_ID,
  merchantId: MERCHANT_ID,
  customerId: null,
  sessionId: null,
  amount: 1500,
  originalAmount: 1500,
  capturedAmount: 1500,
  refundedAmount: 0,
  currency: 'BRL',
  orderId: 'order-42',
  statementDescriptor: null,
  description: null,
  capture: true,
  isDispute: false,
  status: 'authorized',
  paymentMethod: {
    paymentType: 'credit',
    installments: 3,
    recurrence: null,
    expiresIn: null,
    expiresDate: null,
    instructions: null,
    interest: null,
    fine: null,
    qrCodeData: null,
    qrCodeImageUrl: null,
    barcodeData: null,
    barcodeImageUrl: null,
    digitableLine: null,
    expiresAt: null,
  },
  paymentSource: {
    sourceType: 'card',
    cardId: CARD_ID,
    customerId: null,
    brand: 'visa',
    first6digits: '411111',
    last4digits: '1111',
    cardHolderName: 'ANA SOUZA',
    expirationMonth: 12,
    expirationYear: 2030,
    cvvChecked: true,
    customer: null,
  },
  transactionRequests: [
    {
      id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      idempotencyKey: 'idem-1',
      providerId: PROVIDER_ID,
      providerType: 'SANDBOX',
      transactionId: 'sbx_tx_1',
      amount: 1500,
      authorizationNsu: '123456',
      requestStatus: 'success',
      requestType: 'authorization',
      responseTs: '182',
      providerAuthorization: { networkAuthorizationCode: 'A1B2C3', networkResponseCode: '00' },
      declinedCode: null,
      message: null,
      splitRules: [],
      routingReason: null,
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-03-05T05:06:07.001Z',
    },
  ],
  splitRules: [],
  platformFee: null,
  antifraud: null,
  appInfo: null,
  fraudAnalysis: null,
  providerId: PROVIDER_ID,
  providerType: 'SANDBOX',
  providerName: 'sandbox-primary',
  declinedCode: null,
  createdAt: '2026-03-04T05:06:07.089Z',
  updatedAt: '2026-03-05T05:06:07.001Z',
};

const emptyMethod = {
  installments: 0,
  recurrence: '',
  expiresIn: 0,
  expiresDate: '',
  instructions: '',
  qrCodeData: '',
  qrCodeImageUrl: '',
  barcodeData: '',
  barcodeImageUrl: '',
  digitableLine: '',
};
const emptySource = { cardId: '', cardCvv: '', tokenId: '', customerId: '' };

const creditBody = {
  merchantId: MERCHANT_ID,
  amount: 1500,
  paymentMethod: { paymentType: 'credit', installments: 3 },
  paymentSource: { sourceType: 'card', cardId: CARD_ID, cardCvv: '120' },
};

function created(gw: ReturnType<typeof buildGateway>): payments.CreateChargeRequest[] {
  return upstreamCalls(gw.paymentsCalls).map((c) => c.request as unknown as payments.CreateChargeRequest);
}

describe('POST /v1/charges', () => {
  it('refuses, before asking payments, the lengths and installments payments refuses, and documents the same limits', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    const res = await request(gw.app)
      .post('/v1/charges')
      .set(auth())
      .send({
        ...creditBody,
        orderId: 'o'.repeat(CHARGE_LIMITS.orderIdMaxLength + 1),
        statementDescriptor: 'S'.repeat(CHARGE_LIMITS.statementDescriptorMaxLength + 1),
        description: 'd'.repeat(CHARGE_LIMITS.descriptionMaxLength + 1),
        paymentMethod: { paymentType: 'credit', installments: CHARGE_LIMITS.maxInstallments + 1 },
      });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'orderId', message: 'must be at most 100 characters' },
      { field: 'statementDescriptor', message: 'must be at most 22 characters' },
      { field: 'description', message: 'must be at most 500 characters' },
      { field: 'paymentMethod.installments', message: 'must be at most 24' },
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);

    const at = await request(gw.app)
      .post('/v1/charges')
      .set(auth())
      .send({ ...creditBody, orderId: 'o'.repeat(100), statementDescriptor: 'S'.repeat(22), description: 'd'.repeat(500) });
    expect(at.status).toBe(201);

    const schema = (await request(gw.app).get('/v1/openapi.json')).body.components.schemas.CreateChargeRequest;
    expect(schema.properties.orderId.maxLength).toBe(100);
    expect(schema.properties.statementDescriptor.maxLength).toBe(22);
    expect(schema.properties.description.maxLength).toBe(500);
  });

  it('maps every request field to CreateChargeRequest and answers 201 with every field of the charge', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    const res = await request(gw.app)
      .post('/v1/charges')
      .set(auth())
      .set('X-Idempotency-Key', 'charge-1')
      .send({
        ...creditBody,
        currency: 'USD',
        orderId: 'order-42',
        statementDescriptor: 'LOJA*CENTRO',
        description: 'two shirts',
        capture: false,
        customerId: CUSTOMER_ID,
        paymentMethod: { paymentType: 'credit', installments: 3, recurrence: 'initial' },
        splitRules: [
          { sellerId: SELLER_ID, percentage: 8000, liable: true },
          { sellerId: MERCHANT_ID, amount: 300, processingFee: true, chargeRemainderFee: true },
        ],
        fraudAnalysis: { customer: { identity: '12345678901' } },
        threeDSecure2: { eci: '05', cavv: 'AAAB' },
        appInfo: { platform: { integrator: 'acme', name: 'shop', version: '1.2' } },
        paymentFlow: { id: 'flow-x' },
        sessionId: 'not-from-here',
        clientId: 'not-from-here',
      });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(chargeJson);
    const [call] = upstreamCalls(gw.paymentsCalls);
    expect(call!.method).toBe('createCharge');
    expect(call!.meta?.idempotencyKey).toBe('charge-1');
    const expected: payments.CreateChargeRequest = {
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      amount: 1500,
      currency: 'USD',
      orderId: 'order-42',
      statementDescriptor: 'LOJA*CENTRO',
      description: 'two shirts',
      capture: false,
      customerId: CUSTOMER_ID,
      paymentMethod: { ...emptyMethod, paymentType: 'credit', installments: 3, recurrence: 'initial' },
      paymentSource: { ...emptySource, sourceType: 'card', cardId: CARD_ID, cardCvv: '120' },
      splitRules: [
        { sellerId: SELLER_ID, percentage: 8000, processingFee: false, chargeRemainderFee: false, liable: true },
        { sellerId: MERCHANT_ID, amount: 300, processingFee: true, chargeRemainderFee: true, liable: false },
      ],
      fraudAnalysis: { customer: { identity: '12345678901' } },
      threeDSecure2: { eci: '05', cavv: 'AAAB' },
      appInfo: { platform: { integrator: 'acme', name: 'shop', version: '1.2' } },
      paymentFlow: { id: 'flow-x' },
      sessionId: '',
    };
    expect(call!.request).toEqual(expected);
  });

  it('defaults capture to true, currency to BRL and installments to 1', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    await request(gw.app)
      .post('/v1/charges')
      .set(auth())
      .send({ ...creditBody, paymentMethod: { paymentType: 'credit' } });
    const [req] = created(gw);
    expect(req).toMatchObject({ capture: true, currency: 'BRL', orderId: '', customerId: '', splitRules: [], sessionId: '' });
    expect(req!.paymentMethod).toEqual({ ...emptyMethod, paymentType: 'credit', installments: 1 });
  });

  it('maps each payment method variant', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    const customerSource = { sourceType: 'customer', customerId: CUSTOMER_ID };
    for (const paymentMethod of [
      { paymentType: 'debit', recurrence: 'subsequent' },
      { paymentType: 'voucher' },
      { paymentType: 'pix', expiresIn: 3600, installments: 2 },
      { paymentType: 'boleto', expiresDate: '2026-04-10', instructions: 'Do not accept after due date', interest: { days: 1, percentage: 100 }, fine: { amount: 200 } },
    ]) {
      const source = ['debit', 'voucher'].includes(paymentMethod.paymentType) ? creditBody.paymentSource : customerSource;
      const res = await request(gw.app)
        .post('/v1/charges')
        .set(auth())
        .send({ ...creditBody, paymentMethod, paymentSource: source });
      expect(res.status).toBe(201);
    }
    expect(created(gw).map((r) => r.paymentMethod)).toEqual([
      { ...emptyMethod, paymentType: 'debit', installments: 1, recurrence: 'subsequent' },
      { ...emptyMethod, paymentType: 'voucher', installments: 1 },
      { ...emptyMethod, paymentType: 'pix', installments: 2, expiresIn: 3600 },
      {
        ...emptyMethod,
        paymentType: 'boleto',
        installments: 1,
        expiresDate: '2026-04-10',
        instructions: 'Do not accept after due date',
        interest: { days: 1, percentage: 100 },
        fine: { amount: 200 },
      },
    ]);
  });

  it('maps each payment source variant; the inline card travels in the card message', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    const inline = { cardHolderName: 'ANA SOUZA', cardNumber: '4111111111111111', cardCvv: '120', cardExpirationDate: '12/2030' };
    for (const paymentSource of [
      { sourceType: 'card', card: inline },
      { sourceType: 'token', tokenId: TOKEN_ID },
      { sourceType: 'customer', customerId: CUSTOMER_ID, cardId: CARD_ID, cardCvv: '999' },
      { sourceType: 'customer', customer: { name: 'Ana', email: 'ana@example.com' } },
      { sourceType: 'wallet', wallet: { type: 'apple_pay' } },
    ]) {
      const res = await request(gw.app)
        .post('/v1/charges')
        .set(auth())
        .send({ ...creditBody, paymentSource });
      expect(res.status).toBe(201);
    }
    expect(created(gw).map((r) => r.paymentSource)).toEqual([
      { ...emptySource, sourceType: 'card', card: inline },
      { ...emptySource, sourceType: 'token', tokenId: TOKEN_ID },
      { ...emptySource, sourceType: 'customer', customerId: CUSTOMER_ID, cardId: CARD_ID, cardCvv: '999' },
      { ...emptySource, sourceType: 'customer', customer: { name: 'Ana', email: 'ana@example.com' } },
      { ...emptySource, sourceType: 'wallet', wallet: { type: 'apple_pay' } },
    ]);
  });

  it('answers a Pix charge with its QR code and a boleto with its barcode', async () => {
    const pix = sampleCharge({
      status: 'pending',
      paymentMethod: {
        ...emptyMethod,
        paymentType: 'pix',
        installments: 1,
        expiresIn: 3600,
        qrCodeData: '00020126580014br.gov.bcb.pix',
        qrCodeImageUrl: 'https://pix.example/qr.png',
        expiresAt: new Date('2026-03-04T06:06:07.089Z'),
      },
      paymentSource: { sourceType: 'customer', cardId: '', customerId: CUSTOMER_ID, brand: '', first6digits: '', last4digits: '', cardHolderName: '', expirationMonth: 0, expirationYear: 0, cvvChecked: false },
    });
    const boleto = sampleCharge({
      status: 'pending',
      paymentMethod: {
        ...emptyMethod,
        paymentType: 'boleto',
        installments: 1,
        expiresDate: '2026-04-10',
        barcodeData: '23793381286000000000300000000401',
        barcodeImageUrl: 'https://boleto.example/bar.png',
        digitableLine: '23793.38128 60000.000003 00000.000400 1 00000000001500',
        interest: { days: 1 },
      },
    });
    const gw = buildGateway({ payments: { getCharge: async (req: payments.GetChargeRequest) => (req.id === 'pix' ? pix : boleto) } });
    const pixRes = await request(gw.app).get('/v1/charges/pix').set(auth());
    expect(pixRes.body.paymentMethod).toEqual({
      ...chargeJson.paymentMethod,
      paymentType: 'pix',
      installments: 1,
      expiresIn: 3600,
      qrCodeData: '00020126580014br.gov.bcb.pix',
      qrCodeImageUrl: 'https://pix.example/qr.png',
      expiresAt: '2026-03-04T06:06:07.089Z',
    });
    expect(pixRes.body.paymentSource).toEqual({
      sourceType: 'customer',
      cardId: null,
      customerId: CUSTOMER_ID,
      brand: null,
      first6digits: null,
      last4digits: null,
      cardHolderName: null,
      expirationMonth: null,
      expirationYear: null,
      cvvChecked: false,
      customer: null,
    });
    const boletoRes = await request(gw.app).get('/v1/charges/boleto').set(auth());
    expect(boletoRes.body.paymentMethod).toMatchObject({
      paymentType: 'boleto',
      expiresDate: '2026-04-10',
      barcodeData: '23793381286000000000300000000401',
      barcodeImageUrl: 'https://boleto.example/bar.png',
      digitableLine: '23793.38128 60000.000003 00000.000400 1 00000000001500',
      interest: { days: 1 },
      qrCodeData: null,
    });
  });

  it('answers 201 for a charge the providers declined, with the decline in transactionRequests', async () => {
    const declined = sampleCharge({
      status: 'failed',
      capturedAmount: 0,
      declinedCode: 'insufficient_funds',
      transactionRequests: [
        sampleTransactionRequest({ requestStatus: 'failed', transactionId: '', authorizationNsu: '', providerAuthorization: undefined, message: 'timeout' }),
        sampleTransactionRequest({
          id: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
          requestStatus: 'declined',
          declinedCode: 'insufficient_funds',
          providerAuthorization: { networkAuthorizationCode: '', networkResponseCode: '51' },
        }),
      ],
    });
    const gw = buildGateway({ payments: { createCharge: async () => declined } });
    const res = await request(gw.app).post('/v1/charges').set(auth()).send(creditBody);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'failed', declinedCode: 'insufficient_funds' });
    expect(res.body.transactionRequests).toEqual([
      expect.objectContaining({ requestStatus: 'failed', transactionId: null, authorizationNsu: null, providerAuthorization: null, declinedCode: null, message: 'timeout' }),
      expect.objectContaining({
        requestStatus: 'declined',
        declinedCode: 'insufficient_funds',
        providerAuthorization: { networkAuthorizationCode: null, networkResponseCode: '51' },
      }),
    ]);
  });

  it('answers 402 card_declined with declinedCode when the service declines the card', async () => {
    const gw = buildGateway({
      payments: {
        createCharge: async () => {
          throw new AppError('card_declined', 'The card number is invalid', { declinedCode: 'invalid_number' });
        },
      },
    });
    const res = await request(gw.app).post('/v1/charges').set(auth()).send(creditBody);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: { type: 'card_declined', code: 402, declinedCode: 'invalid_number', declined_code: 'invalid_number', message: 'The card number is invalid' } });
  });

  it('maps split, platform fee, antifraud and refund split details of an answer', async () => {
    const charge = sampleCharge({
      status: 'pre_authorized',
      splitRules: [{ sellerId: SELLER_ID, percentage: 10_000, processingFee: true, chargeRemainderFee: false, liable: true }],
      platformFee: { amount: 45, percentage: 300 },
      antifraud: { providerId: PROVIDER_ID, status: 'approved', updatedAt: new Date('2026-03-04T05:07:00.000Z') },
      appInfo: { device: { name: 'pos' } },
      fraudAnalysis: { customer: { identity: '1' } },
      paymentSource: { ...sampleCharge().paymentSource!, customer: { name: 'Ana' } },
      transactionRequests: [sampleTransactionRequest({ requestType: 'refund', amount: 500, splitRules: [{ sellerId: SELLER_ID, amount: 500, processingFee: false, chargeRemainderFee: false, liable: false }] })],
    });
    const gw = buildGateway({ payments: { getCharge: async () => charge } });
    const res = await request(gw.app).get(`/v1/charges/${CHARGE_ID}`).set(auth());
    expect(res.body).toMatchObject({
      splitRules: [{ sellerId: SELLER_ID, percentage: 10_000, amount: null, processingFee: true, chargeRemainderFee: false, liable: true }],
      platformFee: { amount: 45, percentage: 300, fixedAmount: null },
      antifraud: { providerId: PROVIDER_ID, status: 'approved', updatedAt: '2026-03-04T05:07:00.000Z' },
      appInfo: { device: { name: 'pos' } },
      fraudAnalysis: { customer: { identity: '1' } },
      paymentSource: { customer: { name: 'Ana' } },
    });
    expect(res.body.transactionRequests[0]).toMatchObject({ requestType: 'refund', splitRules: [{ sellerId: SELLER_ID, amount: 500 }] });
  });

  it('GET by id answers why each authorization was tried on its provider', async () => {
    const reason = 'flow rule 1, split branch 1 of 2 (70%)';
    const charge = sampleCharge({ transactionRequests: [sampleTransactionRequest({ routingReason: reason }), sampleTransactionRequest({ requestType: 'capture' })] });
    const gw = buildGateway({ payments: { getCharge: async () => charge } });
    const res = await request(gw.app).get(`/v1/charges/${CHARGE_ID}`).set(auth());
    expect(res.body.transactionRequests.map((r: { requestType: string; routingReason: string | null }) => [r.requestType, r.routingReason])).toEqual([
      ['authorization', reason],
      ['capture', null],
    ]);
  });
});

describe('POST /v1/charges validation', () => {
  const post = (gw: ReturnType<typeof buildGateway>, body: unknown) => request(gw.app).post('/v1/charges').set(auth()).send(body as object);

  it('names every required field of an empty body', async () => {
    const gw = buildGateway();
    const res = await post(gw, {});
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'merchantId', message: 'is required' },
      { field: 'amount', message: 'is required' },
      { field: 'paymentMethod', message: 'is required' },
      { field: 'paymentSource', message: 'is required' },
    ]);
  });

  it('names a missing or unknown paymentType or sourceType, and the fields of the chosen variant', async () => {
    const gw = buildGateway();
    const cases: Array<[Record<string, unknown>, Array<{ field: string; message: string }>]> = [
      [{ paymentMethod: {} }, [{ field: 'paymentMethod.paymentType', message: 'is required' }]],
      [{ paymentMethod: { paymentType: 'cash' } }, [{ field: 'paymentMethod.paymentType', message: 'must be one of credit, debit, pix, boleto, voucher' }]],
      [{ paymentMethod: 'credit' }, [{ field: 'paymentMethod', message: 'must be an object' }]],
      [{ paymentMethod: { paymentType: 'pix' } }, [{ field: 'paymentMethod.expiresIn', message: 'is required' }]],
      [{ paymentMethod: { paymentType: 'boleto', expiresDate: '10/04/2026' } }, [{ field: 'paymentMethod.expiresDate', message: 'must be a date (YYYY-MM-DD)' }]],
      [{ paymentMethod: { paymentType: 'credit', installments: 1.5, recurrence: 'weekly' } }, [
        { field: 'paymentMethod.installments', message: 'must be a whole number' },
        { field: 'paymentMethod.recurrence', message: 'must be one of initial, subsequent, unscheduled' },
      ]],
      [{ paymentSource: { sourceType: 'bank' } }, [{ field: 'paymentSource.sourceType', message: 'must be one of card, token, customer, wallet' }]],
      [{ paymentSource: { sourceType: 'card' } }, [{ field: 'paymentSource.cardId', message: 'is required (or card)' }]],
      [{ paymentSource: { sourceType: 'card', cardId: CARD_ID, card: { cardHolderName: 'A', cardNumber: '4111111111111111', cardCvv: '1', cardExpirationDate: '1/30' } } }, [
        { field: 'paymentSource', message: 'give cardId or card, not both' },
      ]],
      [{ paymentSource: { sourceType: 'card', card: { cardNumber: 4111111111111111 } } }, [
        { field: 'paymentSource.card.cardHolderName', message: 'is required' },
        { field: 'paymentSource.card.cardNumber', message: 'must be a string' },
        { field: 'paymentSource.card.cardCvv', message: 'is required' },
        { field: 'paymentSource.card.cardExpirationDate', message: 'is required' },
      ]],
      [{ paymentSource: { sourceType: 'token' } }, [{ field: 'paymentSource.tokenId', message: 'is required' }]],
      [{ paymentSource: { sourceType: 'customer' } }, [{ field: 'paymentSource.customerId', message: 'is required (or customer)' }]],
      [{ amount: 10.5, currency: 'REAL', capture: 'yes' }, [
        { field: 'amount', message: 'must be a whole number of minor units' },
        { field: 'currency', message: 'must be an ISO 4217 code of a currency in circulation (such as BRL)' },
        { field: 'capture', message: 'must be true or false' },
      ]],
      [{ amount: 0 }, [{ field: 'amount', message: 'must be at least 1' }]],
      [{ splitRules: [{ sellerId: SELLER_ID, percentage: 50, amount: 10 }, { percentage: 20000 }] }, [
        { field: 'splitRules.0', message: 'give either percentage or amount' },
        { field: 'splitRules.1.sellerId', message: 'is required' },
        { field: 'splitRules.1.percentage', message: 'must be at most 10000' },
      ]],
      [{ fraudAnalysis: 'none' }, [{ field: 'fraudAnalysis', message: 'must be an object' }]],
    ];
    for (const [change, details] of cases) {
      const res = await post(gw, { ...creditBody, ...change });
      expect({ change, status: res.status, details: res.body.error?.details }).toEqual({ change, status: 400, details });
    }
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });
});

describe('GET /v1/charges', () => {
  it('passes every filter: comma-joined statuses, dates as timestamps, pagination', async () => {
    const gw = buildGateway({ payments: { listCharges: async () => ({ items: [sampleCharge()], meta: meta() }) } });
    const res = await request(gw.app)
      .get(
        `/v1/charges?page=2&limit=50&sort=asc&merchantId=${MERCHANT_ID}&id=${CHARGE_ID}&sessionId=s-1&status=pending,authorized` +
          '&paymentType=pix,credit&orderId=order-42&created=2026-03-04&created.gt=2026-03-01T00:00:00.000Z&created.lt=2026-03-31&providerType=SANDBOX,SUBACQUIRER' +
          '&originalAmount=1500&splitRules=true',
      )
      .set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [chargeJson], meta: meta() });
    const expected: payments.ListChargesRequest = {
      clientId: CLIENT_ID,
      page: { page: 2, limit: 50, sort: 'ASC' },
      merchantId: MERCHANT_ID,
      id: CHARGE_ID,
      sessionId: 's-1',
      status: ['pending', 'authorized'],
      paymentType: ['pix', 'credit'],
      orderId: 'order-42',
      created: '2026-03-04',
      createdGt: new Date('2026-03-01T00:00:00.000Z'),
      createdLt: new Date('2026-03-31T00:00:00.000Z'),
      providerType: ['SANDBOX', 'SUBACQUIRER'],
      originalAmount: 1500,
      hasSplitRules: true,
    };
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual(expected);
  });

  it('defaults to the first page, newest first, no status filter; a repeated status key counts as comma-joined', async () => {
    const gw = buildGateway({ payments: { listCharges: async () => ({ items: [], meta: emptyMeta }) } });
    await request(gw.app).get('/v1/charges').set(auth());
    await request(gw.app).get('/v1/charges?status=failed&status=voided,charged_back').set(auth());
    const requests = upstreamCalls(gw.paymentsCalls).map((c) => c.request);
    expect(requests[0]).toEqual({ clientId: CLIENT_ID, page: { page: 1, limit: 10, sort: 'DESC' }, status: [], paymentType: [], providerType: [] });
    expect(requests[1]!.status).toEqual(['failed', 'voided', 'charged_back']);
  });

  it('names bad filters', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).get('/v1/charges?status=pending,paid&paymentType=cash&created.gt=yesterday&created=03/04/2026&limit=500').set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'limit', message: 'must be at most 100' },
      {
        field: 'status',
        message: 'must be one or more of pending, pre_authorized, authorized, failed, canceled, voided, charged_back, refund_pending, capture_pending, comma-joined',
      },
      { field: 'paymentType', message: 'must be one or more of credit, debit, pix, boleto, voucher, comma-joined' },
      { field: 'created', message: 'must be an RFC 3339 date-time or a date (YYYY-MM-DD)' },
      { field: 'created.gt', message: 'must be an RFC 3339 date-time or a date (YYYY-MM-DD)' },
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });
});

describe('capture and void', () => {
  it('POST capture passes the amount (or none) and answers 201 with the charge', async () => {
    const gw = buildGateway({ payments: { captureCharge: async () => sampleCharge() } });
    const partial = await request(gw.app).post(`/v1/charges/${CHARGE_ID}/capture`).set(auth()).set('X-Idempotency-Key', 'cap-1').send({ amount: 1000 });
    const full = await request(gw.app).post(`/v1/charges/${CHARGE_ID}/capture`).set(auth());
    expect([partial.status, full.status]).toEqual([201, 201]);
    expect(partial.body).toEqual(chargeJson);
    const calls = upstreamCalls(gw.paymentsCalls);
    expect(calls.map((c) => c.request)).toEqual([
      { clientId: CLIENT_ID, id: CHARGE_ID, amount: 1000 },
      { clientId: CLIENT_ID, id: CHARGE_ID },
    ]);
    expect(calls[0]!.meta?.idempotencyKey).toBe('cap-1');
    const bad = await request(gw.app).post(`/v1/charges/${CHARGE_ID}/capture`).set(auth()).send({ amount: -5 });
    expect(bad.body.error.details).toEqual([{ field: 'amount', message: 'must be at least 1' }]);
  });

  it('POST void passes the amount and the split of the refund, and answers 201', async () => {
    const gw = buildGateway({ payments: { voidCharge: async () => sampleCharge({ status: 'voided' }) } });
    const res = await request(gw.app)
      .post(`/v1/charges/${CHARGE_ID}/void`)
      .set(auth())
      .set('X-Idempotency-Key', 'void-1')
      .send({ amount: 500, splitRules: [{ sellerId: SELLER_ID, amount: 500 }] });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('voided');
    const [call] = upstreamCalls(gw.paymentsCalls);
    const expected: payments.VoidChargeRequest = {
      clientId: CLIENT_ID,
      id: CHARGE_ID,
      amount: 500,
      splitRules: [{ sellerId: SELLER_ID, amount: 500, processingFee: false, chargeRemainderFee: false, liable: false }],
    };
    expect(call!.request).toEqual(expected);
    expect(call!.meta?.idempotencyKey).toBe('void-1');
    const bad = await request(gw.app).post(`/v1/charges/${CHARGE_ID}/void`).set(auth()).send({ splitRules: [{ sellerId: SELLER_ID }] });
    expect(bad.body.error.details).toEqual([{ field: 'splitRules.0.amount', message: 'is required' }]);
  });

  it('passes on the 422 of a refund above what was captured', async () => {
    const gw = buildGateway({
      payments: {
        voidCharge: async () => {
          throw new AppError('business_rule', 'The refund exceeds what was captured', { businessCode: 'refund_exceeds_captured' });
        },
      },
    });
    const res = await request(gw.app).post(`/v1/charges/${CHARGE_ID}/void`).set(auth()).send({ amount: 99_999 });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ businessCode: 'refund_exceeds_captured', key: 'refund_exceeds_captured' });
  });
});

describe('POST /v1/charges/3ds/setup', () => {
  it('takes a saved card or a token, with a public key scoped to charges, and is never read as a charge id', async () => {
    const setup: payments.ThreeDSSetup = { id: 'tds-1', token: 'eyJhbGciOi.jwt.sig', collectUrl: 'https://3ds.example/collect', providerType: 'SANDBOX' };
    const gw = buildGateway({ payments: { setupThreeDs: async () => setup } });
    const card = await request(gw.app).post('/v1/charges/3ds/setup').set(auth('pk_charges')).send({ sourceType: 'card', cardId: CARD_ID });
    const token = await request(gw.app).post('/v1/charges/3ds/setup').set(auth('pk_charges')).send({ sourceType: 'token', tokenId: TOKEN_ID });
    expect([card.status, token.status]).toEqual([201, 201]);
    expect(card.body).toEqual({ id: 'tds-1', token: 'eyJhbGciOi.jwt.sig', collectUrl: 'https://3ds.example/collect', providerType: 'SANDBOX' });
    const calls = upstreamCalls(gw.paymentsCalls);
    expect(calls.map((c) => c.method)).toEqual(['setupThreeDs', 'setupThreeDs']);
    expect(calls.map((c) => c.request)).toEqual([
      { clientId: CLIENT_ID, sourceType: 'card', cardId: CARD_ID, tokenId: '' },
      { clientId: CLIENT_ID, sourceType: 'token', cardId: '', tokenId: TOKEN_ID },
    ]);
    const get = await request(gw.app).get('/v1/charges/3ds/setup').set(auth());
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('names a missing or unknown sourceType and the id the variant needs', async () => {
    const gw = buildGateway();
    for (const [body, details] of [
      [{}, [{ field: 'sourceType', message: 'is required' }]],
      [{ sourceType: 'customer' }, [{ field: 'sourceType', message: 'must be one of card, token' }]],
      [{ sourceType: 'card', tokenId: TOKEN_ID }, [{ field: 'cardId', message: 'is required' }]],
    ] as const) {
      const res = await request(gw.app).post('/v1/charges/3ds/setup').set(auth()).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual(details);
    }
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });
});

describe('sandbox-only charge routes', () => {
  it('POST /v1/charges/{id} moves a sandbox charge and answers 200', async () => {
    const gw = buildGateway({ payments: { setSandboxChargeStatus: async () => sampleCharge({ status: 'charged_back' }) } });
    const res = await request(gw.app).post(`/v1/charges/${CHARGE_ID}`).set(auth()).send({ status: 'charged_back' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('charged_back');
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, id: CHARGE_ID, status: 'charged_back' });
    const bad = await request(gw.app).post(`/v1/charges/${CHARGE_ID}`).set(auth()).send({ status: 'pending' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'status', message: 'must be one of authorized, voided, charged_back, refund_pending, failed' }]);
  });

  it('PATCH /v1/charges/{id}/antifraud sets the decision and answers 200', async () => {
    const gw = buildGateway({ payments: { setAntifraudStatus: async () => sampleCharge({ status: 'pre_authorized' }) } });
    const res = await request(gw.app).patch(`/v1/charges/${CHARGE_ID}/antifraud`).set(auth('pk_charges')).send({ status: 'approved' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pre_authorized');
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, id: CHARGE_ID, status: 'approved' });
    const missing = await request(gw.app).patch(`/v1/charges/${CHARGE_ID}/antifraud`).set(auth()).send({});
    expect(missing.body.error.details).toEqual([{ field: 'status', message: 'is required' }]);
  });

  it('look absent to a live client: the same 404 as an unknown route, whatever the key scope, and no upstream call', async () => {
    const gw = buildGateway({ payments: { getCharge: async () => sampleCharge() } });
    const unknown = await request(gw.app).post('/v1/nothing-here').set(auth(LIVE_KEY));
    for (const [key, method, path, body] of [
      [LIVE_KEY, 'post', `/v1/charges/${CHARGE_ID}`, { status: 'authorized' }],
      [LIVE_KEY, 'patch', `/v1/charges/${CHARGE_ID}/antifraud`, { status: 'approved' }],
      ['pk_live_tokens', 'post', `/v1/charges/${CHARGE_ID}`, { status: 'authorized' }],
      [LIVE_KEY, 'post', `/v1/charges/${CHARGE_ID}`, { status: 'not-a-status' }],
    ] as const) {
      const res = await request(gw.app)[method](path).set(auth(key)).send(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { type: 'invalid_request_error', code: 404, key: 'route_not_found', message: `No route for ${method.toUpperCase()} ${path}` } });
      expect(Object.keys(res.body.error).sort()).toEqual(Object.keys(unknown.body.error).sort());
    }
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
    // The rest of the charge routes stay available to a live client.
    expect((await request(gw.app).get(`/v1/charges/${CHARGE_ID}`).set(auth(LIVE_KEY))).status).toBe(200);
  });
});

describe('scopes of charges', () => {
  it('refuse a public key without the charges scope', async () => {
    const gw = buildGateway();
    for (const [method, path] of [
      ['post', '/v1/charges'],
      ['get', '/v1/charges'],
      ['post', '/v1/charges/3ds/setup'],
      ['post', `/v1/charges/${CHARGE_ID}`],
    ] as const) {
      const res = await request(gw.app)[method](path).set(auth('pk_tokens')).send({});
      expect({ path, status: res.status, key: res.body.error.key }).toEqual({ path, status: 403, key: 'scope_not_allowed' });
    }
  });
});
