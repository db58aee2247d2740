import { randomUUID } from 'node:crypto';
import { payments, type sessions } from '@platform/contracts';
import { failureOf, startSessions, type RunningSessions } from '../support';

let running: RunningSessions;

beforeAll(async () => {
  running = await startSessions();
});

afterAll(async () => {
  await running.stop();
});

function method(paymentType: string): payments.PaymentMethod {
  return payments.PaymentMethod.fromPartial({ paymentType, installments: paymentType === 'credit' ? 1 : 0, expiresIn: paymentType === 'pix' ? 600 : 0 });
}

function card(holder = 'ANA SOUZA'): payments.PaymentSource {
  return payments.PaymentSource.fromPartial({
    sourceType: 'card',
    card: { cardHolderName: holder, cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2030' },
  });
}

async function newSession(clientId: string, overrides: Partial<sessions.CreateSessionRequest> = {}): Promise<sessions.Session> {
  const merchantId = running.payments.addMerchant(clientId);
  return running.client.createSession({
    clientId,
    merchantId,
    name: 'Blue mugs',
    orderId: 'order-1',
    currency: 'BRL',
    paymentMethods: [method('credit')],
    items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2, description: '' }],
    splitRules: [],
    statementDescriptor: '',
    ...overrides,
  });
}

async function historyActions(clientId: string, id: string): Promise<Array<string | undefined>> {
  return (await running.client.getSessionHistory({ clientId, id })).items.map((h) => h.action);
}

describe('sessions over gRPC', () => {
  it('creates a 1:1 session with its total, public key and created event, for its client only', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    expect(session).toMatchObject({ clientId, amount: 5000, status: 'created', isActive: true });
    expect(session.multiplePayments).toEqual({ allow: false, maxPayments: 1, paymentCount: 0, pendingCount: 0, status: 'enabled' });
    expect(session.publicKey).toMatch(/^sk_session_/);
    expect((await running.client.getSession({ clientId, id: session.id })).publicKey).toBe(session.publicKey);
    expect((await failureOf(running.client.getSession({ clientId: randomUUID(), id: session.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.getSessionHistory({ clientId: randomUUID(), id: session.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.cancelSession({ clientId: randomUUID(), id: session.id }))).kind).toBe('not_found');
    const { rows } = await running.pool.query(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1`, [clientId]);
    expect(rows.map((r: { subject: string }) => r.subject)).toEqual(['sessions.session.created']);
    const stored = await running.pool.query('SELECT public_key_hash FROM sessions WHERE id = $1', [session.id]);
    expect(stored.rows[0].public_key_hash).not.toContain(session.publicKey);
  });

  it('answers a create retried with the same idempotency key with the same session and key, the key never stored', async () => {
    const clientId = randomUUID();
    const merchantId = running.payments.addMerchant(clientId);
    const request = {
      clientId,
      merchantId,
      name: 'Blue mugs',
      orderId: 'order-1',
      currency: 'BRL',
      paymentMethods: [method('credit')],
      items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2, description: '' }],
      splitRules: [],
      statementDescriptor: '',
    };
    const key = `create-${randomUUID()}`;
    const first = await running.client.createSession(request, { idempotencyKey: key });
    const again = await running.client.createSession(request, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    expect(again.publicKey).toBe(first.publicKey);
    const { rows } = await running.pool.query<{ response: Buffer }>('SELECT response FROM idempotency_keys WHERE client_id = $1', [clientId]);
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.response).toString('utf8')).toContain(first.id);
    expect(Buffer.from(rows[0]!.response).toString('utf8')).not.toContain(first.publicKey);
  });

  it("refuses another client's merchant and Pix with a finite maximum above 1", async () => {
    const clientId = randomUUID();
    const foreignMerchant = running.payments.addMerchant(randomUUID());
    expect((await failureOf(newSession(clientId, { merchantId: foreignMerchant }))).kind).toBe('not_found');
    const pix = await failureOf(newSession(clientId, { paymentMethods: [method('pix')], maxPayments: 3 }));
    expect(pix.businessCode).toBe('pix_boleto_multiple_payments_not_allowed');
    await expect(newSession(clientId, { paymentMethods: [method('pix')], maxPayments: -1 })).resolves.toMatchObject({ multiplePayments: { allow: true, maxPayments: -1 } });
  });

  it('refuses a platform fee larger than the link amount', async () => {
    const clientId = randomUUID();
    const merchantId = running.payments.addMerchant(clientId, { enabled: true, rules: [{ paymentMethod: 'default', fixedAmount: 6000 }] });
    const split = [{ sellerId: randomUUID(), percentage: 10_000, processingFee: true, chargeRemainderFee: true, liable: true }];
    const failure = await failureOf(newSession(clientId, { merchantId, splitRules: split }));
    expect(failure.businessCode).toBe('platform_fee_exceeds_link_amount');
  });

  it('a 1:1 session is paid once; the next buyer gets session_disabled', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    const charge = await running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method('credit'), paymentSource: card() });
    expect(charge).toMatchObject({ status: 'authorized', amount: 5000, sessionId: session.id, merchantId: session.merchantId });
    const second = await failureOf(running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method('credit'), paymentSource: card() }));
    expect(second.businessCode).toBe('session_disabled');
    const paid = await running.client.getSession({ clientId, id: session.id });
    expect(paid).toMatchObject({ status: 'paid', multiplePayments: { paymentCount: 1, pendingCount: 0, status: 'disabled' } });
    const history = (await running.client.getSessionHistory({ clientId, id: session.id })).items;
    expect(history[0]).toMatchObject({ status: 'paid', action: 'paymentSucceeded' });
    expect(history[0]!.diff).toMatchObject({ chargeId: charge.id, changes: { response: { to: { chargeId: charge.id, status: 'authorized' } } } });
  });

  it("asks payments for the session's merchant, amount and split, with the session's method settings under the buyer's", async () => {
    const clientId = randomUUID();
    const split = [{ sellerId: randomUUID(), percentage: 10_000, processingFee: true, chargeRemainderFee: true, liable: true }];
    const session = await newSession(clientId, { paymentMethods: [payments.PaymentMethod.fromPartial({ paymentType: 'pix', expiresIn: 900 })], splitRules: split });
    const charge = await running.client.chargeSession({
      clientId,
      id: session.id,
      customerId: '',
      paymentMethod: payments.PaymentMethod.fromPartial({ paymentType: 'pix' }),
      paymentSource: payments.PaymentSource.fromPartial({ sourceType: 'customer', customer: { name: 'Ana Souza', email: 'ana@example.com' } }),
    });
    expect(charge.status).toBe('pending');
    const asked = running.payments.charges.find((c) => c.sessionId === session.id)!;
    expect(asked).toMatchObject({ clientId, merchantId: session.merchantId, amount: 5000, sessionId: session.id, paymentMethod: { paymentType: 'pix', expiresIn: 900 } });
    expect(asked.splitRules).toEqual(split);
    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments).toMatchObject({ paymentCount: 0, pendingCount: 1 });
    expect((await historyActions(clientId, session.id))[0]).toBe('paymentPending');
  });

  it('refuses a method the session does not accept', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    const failure = await failureOf(running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method('pix'), paymentSource: card() }));
    expect(failure.kind).toBe('business_rule');
    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments?.pendingCount).toBe(0);
  });

  it('gives the place back when the card is declined', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    const declined = await failureOf(running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method('credit'), paymentSource: card('DECLINED') }));
    expect(declined.kind).toBe('card_declined');
    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments).toMatchObject({ paymentCount: 0, pendingCount: 0, status: 'enabled' });
    await expect(running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method('credit'), paymentSource: card() })).resolves.toMatchObject({
      status: 'authorized',
    });
  });

  it('a 1:N session with maxPayments 3 paid by 10 buyers at once takes exactly 3, then is disabled', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: 3 });
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, () => running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method('credit'), paymentSource: card() })),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    const refusals = attempts.flatMap((a) => (a.status === 'rejected' ? [(a.reason as { businessCode?: string }).businessCode] : []));
    expect(refusals).toEqual(Array(7).fill('multiple_payments_limit_reached'));
    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments).toEqual({
      allow: true,
      maxPayments: 3,
      paymentCount: 3,
      pendingCount: 0,
      status: 'disabled',
    });
    const actions = await historyActions(clientId, session.id);
    expect(actions[0]).toBe('sessionExpiredByMaxPayments');
    expect(actions.filter((a) => a === 'paymentSucceeded')).toHaveLength(3);
    const disabled = (await running.client.getSessionHistory({ clientId, id: session.id })).items[0]!;
    expect(disabled).toMatchObject({ status: 'disabled', actions: ['sessionExpiredByMaxPayments', 'isActiveChanged'] });
    expect(disabled.diff).toMatchObject({ reason: 'max_payments_reached' });
    const { rows } = await running.pool.query(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1 AND subject = 'sessions.session.disabled'`, [clientId]);
    expect(rows).toHaveLength(1);
  });

  it('checks session keys: the right key of the right session of the right client only', async () => {
    const clientId = randomUUID();
    const a = await newSession(clientId);
    const b = await newSession(clientId);
    expect((await running.client.authenticateSessionKey({ clientId, sessionId: a.id, key: a.publicKey })).valid).toBe(true);
    expect((await running.client.authenticateSessionKey({ clientId, sessionId: b.id, key: a.publicKey })).valid).toBe(false);
    expect((await running.client.authenticateSessionKey({ clientId: randomUUID(), sessionId: a.id, key: a.publicKey })).valid).toBe(false);
    expect((await running.client.authenticateSessionKey({ clientId: 'nope', sessionId: a.id, key: a.publicKey })).valid).toBe(false);
  });

  it("finds the client's session of a public key, and none for another client's, a client key or a made-up key", async () => {
    const clientId = randomUUID();
    const a = await newSession(clientId);
    const b = await newSession(clientId);
    expect(await running.client.findSessionByKey({ clientId, key: a.publicKey })).toEqual({ sessionId: a.id });
    expect(await running.client.findSessionByKey({ clientId, key: b.publicKey })).toEqual({ sessionId: b.id });
    for (const [owner, key] of [
      [randomUUID(), a.publicKey],
      ['nope', a.publicKey],
      [clientId, a.publicKey.replace('sk_session_', 'pk_')],
      [clientId, `${a.publicKey}x`],
      [clientId, ''],
    ]) {
      expect(await running.client.findSessionByKey({ clientId: owner!, key: key! })).toEqual({ sessionId: '' });
    }
  });

  it('updates, lists by filter and cancels', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: -1 });
    const off = await running.client.updateSession({ clientId, id: session.id, isActive: false });
    expect(off.isActive).toBe(false);
    const refused = await failureOf(running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method('credit'), paymentSource: card() }));
    expect(refused.businessCode).toBe('session_disabled');
    const other = await newSession(clientId);
    const inactive = await running.client.listSessions({ clientId, isActive: false });
    expect(inactive.items.map((s) => s.id)).toEqual([session.id]);
    expect((await running.client.listSessions({ clientId })).meta?.totalItems).toBe(2);
    const canceled = await running.client.cancelSession({ clientId, id: other.id });
    expect(canceled.status).toBe('canceled');
    expect((await failureOf(running.client.cancelSession({ clientId, id: other.id }))).kind).toBe('business_rule');
    expect(await historyActions(clientId, session.id)).toEqual(['isActiveChanged', 'sessionCreated']);
  });

  it('disables a session by its due date through the job, within seconds', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { dueDate: new Date(Date.now() + 1500) });
    const deadline = Date.now() + 10_000;
    let current = session;
    while (Date.now() < deadline) {
      current = await running.client.getSession({ clientId, id: session.id });
      if (!current.isActive) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(current.isActive).toBe(false);
    const top = (await running.client.getSessionHistory({ clientId, id: session.id })).items[0]!;
    expect(top).toMatchObject({ status: 'disabled', action: 'sessionExpiredByDueDate' });
    expect(top.diff).toMatchObject({ reason: 'session_due_date_reached' });
  });
});
