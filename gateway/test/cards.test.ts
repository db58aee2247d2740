import type { payments } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, upstreamCalls } from './helpers';
import { CARD_ID, emptyMeta, MERCHANT_ID, meta, sampleCard, TOKEN_ID } from './paymentSamples';

const card = { cardHolderName: 'ANA SOUZA', cardNumber: '4111111111111111', cardCvv: '120', cardExpirationDate: '12/2030' };

const cardJson = {
  id: CARD_ID,
  status: 'active',
  brand: 'visa',
  cardHolderName: 'ANA SOUZA',
  first6digits: '411111',
  last4digits: '1111',
  expirationMonth: 12,
  expirationYear: 2030,
  fingerprint: 'fp_5b1c',
  cvvChecked: true,
  customerId: null,
  merchantId: MERCHANT_ID,
  clientId: CLIENT_ID,
  createdAt: '2026-03-04T05:06:07.089Z',
  updatedAt: '2026-03-05T05:06:07.001Z',
};

describe('POST /v1/tokens', () => {
  it('sends the card to CreateToken and answers 201 {tokenId, expiresAt}', async () => {
    const gw = buildGateway({ payments: { createToken: async () => ({ tokenId: TOKEN_ID, expiresAt: new Date('2026-03-04T05:16:07.089Z') }) } });
    const res = await request(gw.app).post('/v1/tokens').set(auth('pk_tokens')).set('X-Idempotency-Key', 'tok-1').send({ ...card, extra: 'x' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ tokenId: TOKEN_ID, expiresAt: '2026-03-04T05:16:07.089Z' });
    const [call] = upstreamCalls(gw.paymentsCalls);
    const expected: payments.CreateTokenRequest = { clientId: CLIENT_ID, card };
    expect(call!.request).toEqual(expected);
    expect(call!.meta?.idempotencyKey).toBe('tok-1');
  });

  it('names each missing or mistyped card field', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).post('/v1/tokens').set(auth()).send({ cardNumber: 4111111111111111, cardCvv: '', cardExpirationDate: '12/2030' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'cardHolderName', message: 'is required' },
      { field: 'cardNumber', message: 'must be a string' },
      { field: 'cardCvv', message: 'must not be empty' },
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });

  it('passes on the per-field details of the vault', async () => {
    const gw = buildGateway({
      payments: {
        createToken: async () => {
          throw new AppError('validation', 'Invalid card', { details: [{ field: 'cardNumber', message: 'is not a valid card number' }] });
        },
      },
    });
    const res = await request(gw.app).post('/v1/tokens').set(auth()).send({ ...card, cardNumber: '4111111111111112' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'cardNumber', message: 'is not a valid card number' }]);
  });

  it('needs the tokens scope for a public key', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).post('/v1/tokens').set(auth('pk_charges')).send(card);
    expect(res.status).toBe(403);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });
});

describe('/v1/cards', () => {
  it('POST saves the card of a token and answers 201 with the card summary', async () => {
    const gw = buildGateway({ payments: { createCard: async () => sampleCard() } });
    const res = await request(gw.app).post('/v1/cards').set(auth()).set('X-Idempotency-Key', 'card-1').send({ tokenId: TOKEN_ID, merchantId: MERCHANT_ID, cvvCheck: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(cardJson);
    const [call] = upstreamCalls(gw.paymentsCalls);
    const expected: payments.CreateCardRequest = { clientId: CLIENT_ID, tokenId: TOKEN_ID, merchantId: MERCHANT_ID, cvvCheck: true };
    expect(call!.request).toEqual(expected);
    expect(call!.meta?.idempotencyKey).toBe('card-1');
  });

  it('POST reads merchantId and cvvCheck from zeroDollar too, and defaults to no verification', async () => {
    const gw = buildGateway({ payments: { createCard: async () => sampleCard() } });
    await request(gw.app).post('/v1/cards').set(auth()).send({ tokenId: TOKEN_ID, zeroDollar: { merchantId: MERCHANT_ID, cvvCheck: true } });
    await request(gw.app).post('/v1/cards').set(auth()).send({ tokenId: TOKEN_ID });
    const requests = upstreamCalls(gw.paymentsCalls).map((c) => c.request);
    expect(requests).toEqual([
      { clientId: CLIENT_ID, tokenId: TOKEN_ID, merchantId: MERCHANT_ID, cvvCheck: true },
      { clientId: CLIENT_ID, tokenId: TOKEN_ID, merchantId: '', cvvCheck: false },
    ]);
  });

  it('POST refuses a missing token and a zeroDollar that contradicts the top level', async () => {
    const gw = buildGateway();
    const missing = await request(gw.app).post('/v1/cards').set(auth()).send({ cvvCheck: 'yes' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([
      { field: 'tokenId', message: 'is required' },
      { field: 'cvvCheck', message: 'must be true or false' },
    ]);
    const contradiction = await request(gw.app)
      .post('/v1/cards')
      .set(auth())
      .send({ tokenId: TOKEN_ID, merchantId: MERCHANT_ID, zeroDollar: { merchantId: 'other', cvvCheck: true }, cvvCheck: false });
    expect(contradiction.status).toBe(400);
    expect(contradiction.body.error.details).toEqual([
      { field: 'zeroDollar.merchantId', message: 'differs from merchantId' },
      { field: 'zeroDollar.cvvCheck', message: 'differs from cvvCheck' },
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });

  it('POST answers 402 card_declined when the zero-dollar verification is declined', async () => {
    const gw = buildGateway({
      payments: {
        createCard: async () => {
          throw new AppError('card_declined', 'The card was declined', { declinedCode: 'restricted_card' });
        },
      },
    });
    const res = await request(gw.app).post('/v1/cards').set(auth()).send({ tokenId: TOKEN_ID, merchantId: MERCHANT_ID });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: { type: 'card_declined', code: 402, declinedCode: 'restricted_card', declined_code: 'restricted_card', message: 'The card was declined' } });
  });

  it('GET list filters by customerId; GET by id answers the card with null for unset ids', async () => {
    const customerId = '0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11';
    const gw = buildGateway({
      payments: {
        listCards: async () => ({ items: [sampleCard({ customerId })], meta: meta() }),
        getCard: async () => sampleCard({ merchantId: '', cvvChecked: false }),
      },
    });
    const list = await request(gw.app).get(`/v1/cards?customerId=${customerId}&page=2`).set(auth());
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [{ ...cardJson, customerId }], meta: meta() });
    const one = await request(gw.app).get(`/v1/cards/${CARD_ID}`).set(auth());
    expect(one.body).toEqual({ ...cardJson, merchantId: null, cvvChecked: false });
    const calls = upstreamCalls(gw.paymentsCalls);
    expect(calls[0]!.request).toEqual({ clientId: CLIENT_ID, page: { page: 2, limit: 10, sort: 'DESC' }, customerId, ids: [] });
    expect(calls[1]!.request).toEqual({ clientId: CLIENT_ID, id: CARD_ID });
  });

  it('needs the cards scope for a public key', async () => {
    const gw = buildGateway({ payments: { listCards: async () => ({ items: [], meta: emptyMeta }) } });
    expect((await request(gw.app).get('/v1/cards').set(auth('pk_tokens'))).status).toBe(403);
    expect((await request(gw.app).get('/v1/cards').set(auth('pk_all'))).status).toBe(200);
  });
});
