import { payments, sessions } from '@platform/contracts';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, PUBLIC_URL, UPDATED_AT, upstreamCalls } from './helpers';

const SESSION_ID = '0f3e8a2c-71f4-4b1e-9b55-3c0c2d7e9a41';
const OTHER_SESSION_ID = '5b1c2f0e-8a51-4d0c-9e7e-2f4b8f1f6d10';
const SESSION_KEY = 'sk_session_for-0f3e8a2c';

function sampleSession(): sessions.Session {
  return sessions.Session.fromPartial({
    id: SESSION_ID,
    clientId: CLIENT_ID,
    merchantId: 'b7e4c0a2-5d3f-4b8e-9f21-6a1c0d2e3f45',
    name: 'Mugs',
    amount: 5000,
    currency: 'BRL',
    isActive: true,
    status: 'created',
    publicKey: SESSION_KEY,
    paymentMethods: [payments.PaymentMethod.fromPartial({ paymentType: 'credit', installments: 1 })],
    items: [{ name: 'Mug', unitPrice: 2500, quantity: 2, description: '' }],
    multiplePayments: { allow: true, maxPayments: 3, paymentCount: 0, pendingCount: 0, status: 'enabled' },
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
  });
}

const sessionFake = () => ({
  createSession: async () => sampleSession(),
  getSession: async () => sampleSession(),
  authenticateSessionKey: async (r: sessions.AuthenticateSessionKeyRequest) => ({ valid: r.sessionId === SESSION_ID && r.key === SESSION_KEY && r.clientId === CLIENT_ID }),
  findSessionByKey: async (r: sessions.FindSessionByKeyRequest) => ({ sessionId: r.key === SESSION_KEY && r.clientId === CLIENT_ID ? SESSION_ID : '' }),
  chargeSession: async (r: sessions.ChargeSessionRequest) =>
    payments.Charge.fromPartial({ id: 'c1', clientId: CLIENT_ID, sessionId: r.id, amount: 5000, status: 'authorized', createdAt: CREATED_AT, updatedAt: UPDATED_AT }),
});

const chargeBody = {
  paymentMethod: { paymentType: 'credit', installments: 1 },
  paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2030' } },
};

describe('/v1/sessions', () => {
  it('POST maps the body, answers 201 with the session, its key and its payment link', async () => {
    const gw = buildGateway({ sessions: sessionFake() });
    const res = await request(gw.app)
      .post('/v1/sessions')
      .set(auth())
      .send({ merchantId: 'b7e4c0a2-5d3f-4b8e-9f21-6a1c0d2e3f45', maxPayments: 3, paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Mug', unitPrice: 2500, quantity: 2 }] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: SESSION_ID, publicKey: SESSION_KEY, paymentLink: `${PUBLIC_URL}/checkout/${SESSION_ID}`, multiplePayments: { allow: true, maxPayments: 3 } });
    const [call] = upstreamCalls(gw.sessionsCalls);
    expect(call!.request).toMatchObject({ clientId: CLIENT_ID, maxPayments: 3, currency: 'BRL', items: [{ name: 'Mug', unitPrice: 2500, quantity: 2, description: '' }] });
  });

  it('POST refuses a maxPayments out of range before asking sessions', async () => {
    const gw = buildGateway({ sessions: sessionFake() });
    const res = await request(gw.app)
      .post('/v1/sessions')
      .set(auth())
      .send({ merchantId: 'm', maxPayments: 0, paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Mug', unitPrice: 1, quantity: 1 }] });
    expect(res.status).toBe(400);
    expect(upstreamCalls(gw.sessionsCalls)).toEqual([]);
  });

  it("the session's key pays that session: sessions checks it, settings is not asked", async () => {
    const gw = buildGateway({ sessions: sessionFake() });
    const res = await request(gw.app).post(`/v1/sessions/${SESSION_ID}/charge`).set(auth(SESSION_KEY)).send(chargeBody);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'c1', sessionId: SESSION_ID, status: 'authorized' });
    expect(gw.settingsCalls.filter((c) => c.method === 'authenticate')).toEqual([]);
    expect(gw.sessionsCalls.map((c) => c.method)).toEqual(['authenticateSessionKey', 'chargeSession']);
  });

  it("a session's key cannot pay another session nor reach any other route", async () => {
    const gw = buildGateway({ sessions: sessionFake() });
    expect((await request(gw.app).post(`/v1/sessions/${OTHER_SESSION_ID}/charge`).set(auth(SESSION_KEY)).send(chargeBody)).status).toBe(401);
    expect((await request(gw.app).get(`/v1/sessions/${SESSION_ID}`).set(auth(SESSION_KEY))).status).toBe(401);
    expect((await request(gw.app).get('/v1/charges').set(auth(SESSION_KEY))).status).toBe(401);
    expect(gw.sessionsCalls.map((c) => c.method)).toEqual(['authenticateSessionKey']);
  });

  it("the session's key tokenizes a card for that session: the token is made with the session's id", async () => {
    const tokenFake = { createToken: async () => ({ tokenId: 'e1c7a1f2-3b4d-4e5f-8a9b-0c1d2e3f4a5b', expiresAt: new Date('2026-03-04T05:16:07.089Z') }) };
    const gw = buildGateway({ sessions: sessionFake(), payments: tokenFake });
    const card = { cardHolderName: 'ANA SOUZA', cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2030' };
    const res = await request(gw.app).post('/v1/tokens').set(auth(SESSION_KEY)).send(card);
    expect(res.status).toBe(201);
    expect(gw.settingsCalls.filter((c) => c.method === 'authenticate')).toEqual([]);
    expect(gw.sessionsCalls.map((c) => c.method)).toEqual(['findSessionByKey']);
    expect(upstreamCalls(gw.paymentsCalls).map((c) => c.request)).toEqual([{ clientId: CLIENT_ID, card, sessionId: SESSION_ID }]);
    // A key of no session is refused before payments is asked; a client key makes a client token, with no session.
    expect((await request(gw.app).post('/v1/tokens').set(auth('sk_session_made-up')).send(card)).status).toBe(401);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(1);
    expect((await request(gw.app).post('/v1/tokens').set(auth()).send(card)).status).toBe(201);
    expect(upstreamCalls(gw.paymentsCalls).map((c) => c.request)[1]).toEqual({ clientId: CLIENT_ID, card });
  });

  it('a client key reaching sessions may also pay; one that does not is refused', async () => {
    const gw = buildGateway({ sessions: sessionFake() });
    expect((await request(gw.app).post(`/v1/sessions/${SESSION_ID}/charge`).set(auth()).send(chargeBody)).status).toBe(201);
    expect((await request(gw.app).post(`/v1/sessions/${SESSION_ID}/charge`).set(auth('pk_customers')).send(chargeBody)).status).toBe(403);
  });
});
