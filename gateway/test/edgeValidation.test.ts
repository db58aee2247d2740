import request from 'supertest';
import { UPSTREAMS } from '../src/clients';
import { auth, buildGateway, upstreamCalls, type TestGateway } from './helpers';
import { CARD_ID, MERCHANT_ID, sampleCharge, SELLER_ID } from './paymentSamples';

type Detail = { field: string; message: string };

/** The answer is the 400 envelope naming exactly these fields, and no service was asked anything. */
function expectRefused(gw: TestGateway, res: request.Response, fields: string[]): void {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 400, details: expect.any(Array) });
  expect((res.body.error.details as Detail[]).map((d) => d.field).sort()).toEqual([...fields].sort());
  for (const name of UPSTREAMS) expect(upstreamCalls(gw[`${name}Calls`])).toEqual([]);
}

const charge = {
  merchantId: MERCHANT_ID,
  amount: 1500,
  paymentMethod: { paymentType: 'credit', installments: 1 },
  paymentSource: { sourceType: 'card', cardId: CARD_ID },
};
const boleto = (expiresDate: string) => ({ ...charge, paymentMethod: { paymentType: 'boleto', expiresDate }, paymentSource: { sourceType: 'customer', customerId: CARD_ID } });
const session = {
  merchantId: MERCHANT_ID,
  paymentMethods: [{ paymentType: 'credit' }],
  items: [{ name: 'Mug', unitPrice: 2500, quantity: 1 }],
};

describe('dates, currencies and URLs refused at the edge', () => {
  it('refuses a currency that is not one in circulation (XXX, XTS, lower-case nonsense), and takes BRL, usd and EUR', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    for (const currency of ['XXX', 'XTS', 'ABC', 'BR']) {
      const res = await request(gw.app).post('/v1/charges').set(auth()).send({ ...charge, currency });
      expectRefused(gw, res, ['currency']);
    }
    const sessions = buildGateway();
    expectRefused(sessions, await request(sessions.app).post('/v1/sessions').set(auth()).send({ ...session, currency: 'XXX' }), ['currency']);
    for (const currency of ['BRL', 'usd', 'EUR']) {
      expect((await request(gw.app).post('/v1/charges').set(auth()).send({ ...charge, currency })).status).toBe(201);
    }
    expect(upstreamCalls(gw.paymentsCalls).map((c) => (c.request as { currency: string }).currency)).toEqual(['BRL', 'USD', 'EUR']);
  });

  it('refuses a boleto due date that is no calendar date or far out of range (0000-00-00, 0001-01-01, 1900, 3000)', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    for (const day of ['0000-00-00', '0001-01-01', '1900-01-01', '1999-12-31', '2026-02-30', '3000-01-01']) {
      expectRefused(gw, await request(gw.app).post('/v1/charges').set(auth()).send(boleto(day)), ['paymentMethod.expiresDate']);
      const sessions = buildGateway();
      const res = await request(sessions.app)
        .post('/v1/sessions')
        .set(auth())
        .send({ ...session, paymentMethods: [{ paymentType: 'boleto', expiresDate: day }] });
      expectRefused(sessions, res, ['paymentMethods.0.expiresDate']);
    }
  });

  it('refuses instants outside a sane range with a message of its own, before the service is asked', async () => {
    const gw = buildGateway();
    for (const deadlineAt of ['0001-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '2999-01-01T00:00:00Z']) {
      const res = await request(gw.app).post(`/v1/sellers/${SELLER_ID}/registration-reviews`).set(auth()).send({ reviewType: 'acp', deadlineAt });
      expectRefused(gw, res, ['deadlineAt']);
      expect((res.body.error.details as Detail[])[0]!.message).toBe('must be an instant from 1970-01-01 to 2099-12-31');
    }
    const res = await request(gw.app)
      .post(`/v1/sellers/${SELLER_ID}/registration-reviews`)
      .set(auth())
      .send({ reviewType: 'acp', deadlineAt: '2031-01-15T10:00:00Z', expiresAt: '0001-01-01T00:00:00Z' });
    expectRefused(gw, res, ['expiresAt']);
  });

  it('refuses a companyUrl carrying a user name or password, or that is no web URL', async () => {
    const gw = buildGateway();
    for (const companyUrl of ['https://user:pass@shop.example.com', 'https://user@shop.example.com', 'http://:secret@shop.example.com/', 'javascript:alert(1)', 'shop']) {
      expectRefused(gw, await request(gw.app).post('/v1/settings').set(auth()).send({ companyUrl }), ['companyUrl']);
      expectRefused(gw, await request(gw.app).patch('/v1/settings').set(auth()).send({ companyUrl }), ['companyUrl']);
    }
  });
});
