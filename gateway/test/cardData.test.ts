import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway } from './helpers';
import { MERCHANT_ID, sampleCharge, TOKEN_ID } from './paymentSamples';

const CARD_NUMBER = '4532015112830366';
const CVV = '9173';
const card = { cardHolderName: 'ANA SOUZA', cardNumber: CARD_NUMBER, cardCvv: CVV, cardExpirationDate: '12/2030' };
const inlineCharge = {
  merchantId: MERCHANT_ID,
  amount: 1500,
  paymentMethod: { paymentType: 'credit', installments: 1 },
  paymentSource: { sourceType: 'card', card },
};

/** Every string anywhere in a value: numbers such as timestamps and durations cannot hide a card number but could match a CVV by chance. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, v]) => [key, ...strings(v)]);
  return [];
}

describe('card numbers and CVVs', () => {
  it('never appear in the access log, the error log or any answer, whatever happens to the request', async () => {
    let outcome: 'ok' | 'invalid' | 'declined' = 'ok';
    const gw = buildGateway({
      payments: {
        createToken: async () => {
          if (outcome === 'invalid') throw new AppError('validation', 'Invalid card', { details: [{ field: 'cardNumber', message: 'is not a valid card number' }] });
          return { tokenId: TOKEN_ID, expiresAt: new Date('2026-03-04T05:16:07.089Z') };
        },
        createCharge: async () => {
          if (outcome === 'declined') throw new AppError('card_declined', 'The card security code is invalid', { declinedCode: 'invalid_cvv' });
          if (outcome === 'invalid') {
            throw new AppError('validation', 'Invalid card', { details: [{ field: 'paymentSource.card.cardCvv', message: 'must be 3 digits' }] });
          }
          return sampleCharge();
        },
      },
    });
    const answers: request.Response[] = [];
    const send = async (path: string, body: unknown) => {
      const res = await request(gw.app).post(path).set(auth()).set('X-Request-Id', 'req-card').send(body as object);
      answers.push(res);
      return res;
    };

    expect((await send('/v1/tokens', card)).status).toBe(201);
    expect((await send('/v1/charges', inlineCharge)).status).toBe(201);
    outcome = 'invalid';
    expect((await send('/v1/tokens', card)).status).toBe(400);
    expect((await send('/v1/charges', inlineCharge)).status).toBe(400);
    outcome = 'declined';
    expect((await send('/v1/charges', inlineCharge)).status).toBe(402);
    // Refused by the gateway's own validation, with the card values in the wrong shape or place.
    expect((await send('/v1/tokens', { ...card, cardNumber: Number(CARD_NUMBER), cardCvv: `${CVV}${CVV}${CVV}`, cardHolderName: CARD_NUMBER.repeat(20) })).status).toBe(400);
    expect((await send('/v1/tokens', { cardExpirationDate: CVV, cardCvv: Number(CVV) })).status).toBe(400);
    const badCharge = { ...inlineCharge, amount: CARD_NUMBER, paymentSource: { sourceType: CARD_NUMBER, card } };
    expect((await send('/v1/charges', badCharge)).status).toBe(400);
    expect((await send('/v1/charges', { ...inlineCharge, paymentSource: { sourceType: 'card', cardId: CVV, card: { ...card, cardCvv: Number(CVV) } } })).status).toBe(400);
    expect((await send('/v1/charges', { ...inlineCharge, paymentMethod: { paymentType: CVV } })).status).toBe(400);
    const malformed = await request(gw.app)
      .post('/v1/tokens')
      .set(auth())
      .set('Content-Type', 'application/json')
      .send(`{"cardNumber": "${CARD_NUMBER}", "cardCvv": "${CVV}"`);
    answers.push(malformed);
    expect(malformed.status).toBe(400);

    expect(strings(gw.lines)).toContain('req-card');
    expect(gw.lines.filter((l) => typeof l.msg === 'string' && /^POST \/v1\/(tokens|charges) \d{3}$/.test(l.msg))).toHaveLength(answers.length);
    for (const text of [...strings(gw.lines), ...answers.flatMap((res) => [res.text, ...strings(res.headers)])]) {
      expect(text).not.toContain(CARD_NUMBER);
      expect(text).not.toContain(CVV);
    }
  });
});
