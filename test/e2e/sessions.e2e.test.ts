import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;
interface Session extends Json {
  id: string;
  publicKey: string;
  paymentLink: string;
  isActive: boolean;
  status: string;
  multiplePayments: { allow: boolean; maxPayments: number; paymentCount: number; pendingCount: number; status: string };
}
interface HistoryItem {
  status: string;
  action: string | null;
  actions: string[];
  diff: Json;
}
interface ApiError {
  error: { businessCode?: string; code: number };
}

const expiration = `12/${new Date().getUTCFullYear() + 5}`;
const approvedCard = () => ({ sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(0), cardCvv: '870', cardExpirationDate: expiration } });
const credit = { paymentType: 'credit', installments: 1 };

describe('sessions (payment links) through the gateway', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let alice: Credentials;
  let bob: Credentials;
  let merchantId: string;

  const createSession = async (body: Json = {}, who: Credentials = alice) =>
    api<Session>('POST', '/v1/sessions', {
      auth: who,
      body: { merchantId, name: 'Blue mugs', paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2 }], ...body },
    });
  /** A buyer pays with the session's own key, as the checkout page does. */
  const pay = (session: Session, body: Json = { paymentMethod: credit, paymentSource: approvedCard() }, key = session.publicKey) =>
    api<Json & ApiError>('POST', `/v1/sessions/${session.id}/charge`, { auth: { clientId: alice.clientId, apiKey: key }, body });
  const history = async (id: string) => (await api<HistoryItem[]>('GET', `/v1/sessions/${id}/history`, { auth: alice })).body;

  beforeAll(async () => {
    platform = await startTestPlatform('e2esess');
    api = apiClient(platform.gatewayUrl);
    alice = await createClient(platform.adminUrl, platform.adminToken, 'Alice Links');
    bob = await createClient(platform.adminUrl, platform.adminToken, 'Bob Links');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: alice,
      body: { mcc: '5999', name: 'Loja Links', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('creates a 1:1 session with its key and link; it is paid once, then answers 422 session_disabled', async () => {
    const created = await createSession({ orderId: 'order-11' });
    expect(created.status).toBe(201);
    const session = created.body;
    expect(session).toMatchObject({ status: 'created', amount: 5000, isActive: true, multiplePayments: { allow: false, maxPayments: 1, paymentCount: 0, pendingCount: 0 } });
    expect(session.paymentLink).toMatch(new RegExp(`/checkout/${session.id}$`));
    expect((await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice })).body.publicKey).toBe(session.publicKey);

    const charge = await pay(session);
    expect(charge.status).toBe(201);
    expect(charge.body).toMatchObject({ status: 'authorized', amount: 5000, sessionId: session.id, merchantId });
    const again = await pay(session);
    expect(again.status).toBe(422);
    expect(again.body.error.businessCode).toBe('session_disabled');

    const detail = await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice });
    expect(detail.body).toMatchObject({ status: 'paid', multiplePayments: { paymentCount: 1, pendingCount: 0, status: 'disabled' } });
    const charges = await api<{ items: Array<{ id: string }> }>('GET', `/v1/charges?sessionId=${session.id}`, { auth: alice });
    expect(charges.body.items.map((c) => c.id)).toEqual([charge.body.id]);
    const items = await history(session.id);
    expect(items.map((h) => h.action)).toEqual(['paymentSucceeded', 'sessionCreated']);
    expect(items[0]!.diff).toMatchObject({ chargeId: charge.body.id });
    expect(Object.keys(items[0]!)).not.toContain('chargeId');
  });

  it('answers a payment retried with the same X-Idempotency-Key with the same charge, made and counted once', async () => {
    const session = (await createSession({ orderId: 'order-retry' })).body;
    // One buyer's request, sent again as it was (approvedCard() draws a new number each time).
    const body = { paymentMethod: credit, paymentSource: approvedCard() };
    const attempt = (key: string) =>
      api<Json & ApiError & { id: string }>('POST', `/v1/sessions/${session.id}/charge`, {
        auth: { clientId: alice.clientId, apiKey: session.publicKey },
        headers: { 'x-idempotency-key': key },
        body,
      });
    const key = `checkout-${session.id}-1`;
    const [first, second] = await Promise.all([attempt(key), attempt(key)]);
    const answered = [first, second].filter((r) => r.status === 201);
    // Both at once: one makes the charge, the other answers it or 409 while it is being made.
    expect([first.status, second.status].every((s) => s === 201 || s === 409)).toBe(true);
    const again = await attempt(key);
    expect(again.status).toBe(201);
    for (const r of answered) expect(r.body.id).toBe(again.body.id);
    expect((await attempt(`checkout-${session.id}-2`)).body.error.businessCode).toBe('session_disabled');
    const charges = await api<{ items: Array<{ id: string }> }>('GET', `/v1/charges?sessionId=${session.id}`, { auth: alice });
    expect(charges.body.items.map((c) => c.id)).toEqual([again.body.id]);
    expect((await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice })).body).toMatchObject({ status: 'paid', multiplePayments: { paymentCount: 1, pendingCount: 0 } });
  });

  it('a 1:N session with maxPayments 3 paid by 10 buyers at once takes exactly 3', async () => {
    const session = (await createSession({ maxPayments: 3 })).body;
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(session)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.error.businessCode])).toEqual(Array(7).fill([422, 'multiple_payments_limit_reached']));
    const detail = (await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice })).body;
    expect(detail.multiplePayments).toEqual({ allow: true, maxPayments: 3, paymentCount: 3, pendingCount: 0, status: 'disabled' });
    const items = await history(session.id);
    expect(items[0]).toMatchObject({ status: 'disabled', action: 'sessionExpiredByMaxPayments' });
    expect((await pay(session)).body.error.businessCode).toBe('multiple_payments_limit_reached');
  });

  it('a 5-payment link met by 40 buyers at once sells all 5 places to good cards, none told to retry: declines give theirs back', async () => {
    const session = (await createSession({ maxPayments: 5 })).body;
    // Card numbers ending 02 are declined by the SANDBOX, ending 0 approved; no buyer asks twice.
    const endings = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? '02' : '0'));
    const answers = await Promise.all(
      endings.map(async (ending) => {
        const answer = await pay(session, { paymentMethod: credit, paymentSource: { ...approvedCard(), card: { ...approvedCard().card, cardNumber: cardNumberEnding(ending) } } });
        return { ending, outcome: answer.status === 201 ? String(answer.body.status) : `${answer.status} ${answer.body.error.businessCode ?? ''}` };
      }),
    );
    const good = answers.filter((a) => a.ending === '0').map((a) => a.outcome);
    expect(good.filter((o) => o === 'authorized')).toHaveLength(5);
    expect(good.filter((o) => o !== 'authorized')).toEqual(Array(25).fill('422 multiple_payments_limit_reached'));
    for (const a of answers.filter((x) => x.ending === '02')) expect(['failed', '402 ', '422 multiple_payments_limit_reached']).toContain(a.outcome);
    const detail = (await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice })).body;
    expect(detail.multiplePayments).toEqual({ allow: true, maxPayments: 5, paymentCount: 5, pendingCount: 0, status: 'disabled' });
  });

  it('disables a session within seconds of its due date', async () => {
    const session = (await createSession({ dueDate: new Date(Date.now() + 2000).toISOString() })).body;
    await eventually(
      async () => ((await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice })).body.isActive ? undefined : true),
      'the session disabled by its due date',
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    const items = await history(session.id);
    expect(items[0]).toMatchObject({ status: 'disabled', action: 'sessionExpiredByDueDate', diff: { reason: 'session_due_date_reached' } });
    expect((await pay(session)).body.error.businessCode).toBe('session_disabled');
  });

  it('refuses Pix or boleto with a finite maxPayments above 1', async () => {
    for (const paymentType of ['pix', 'boleto']) {
      const refused = await createSession({ maxPayments: 5, paymentMethods: [{ paymentType }] });
      expect(refused.status).toBe(422);
      expect((refused.body as unknown as ApiError).error.businessCode).toBe('pix_boleto_multiple_payments_not_allowed');
    }
  });

  it('settles a Pix session when its charge is paid later (the charge events)', async () => {
    const session = (await createSession({ paymentMethods: [{ paymentType: 'pix', expiresIn: 3600 }] })).body;
    // The buyer's own data, as the checkout page sends it (a session is not paid for a stored customer).
    const customer = { name: 'Ana Souza', email: `ana.${Date.now()}@example.com`, document: { type: 'cpf', number: '11144477735', country: 'BR' } };
    const charge = await pay(session, { paymentMethod: { paymentType: 'pix', expiresIn: 3600 }, paymentSource: { sourceType: 'customer', customer } });
    expect(charge.status).toBe(201);
    expect(charge.body.status).toBe('pending');
    expect((await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice })).body.multiplePayments.pendingCount).toBe(1);
    expect((await pay(session)).body.error.businessCode).toBeDefined();
    expect((await api('POST', `/v1/charges/${charge.body.id as string}`, { auth: alice, body: { status: 'authorized' } })).status).toBe(200);
    const paid = await eventually(
      async () => {
        const detail = (await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: alice })).body;
        return detail.status === 'paid' ? detail : undefined;
      },
      'the Pix session paid',
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(paid.multiplePayments).toMatchObject({ paymentCount: 1, pendingCount: 0 });
    expect((await history(session.id)).map((h) => h.action)).toEqual(['paymentSucceeded', 'paymentPending', 'sessionCreated']);
  });

  it("answers 404 for another client's session everywhere", async () => {
    const session = (await createSession()).body;
    for (const [method, route, body] of [
      ['GET', `/v1/sessions/${session.id}`],
      ['PATCH', `/v1/sessions/${session.id}`, { isActive: false }],
      ['POST', `/v1/sessions/${session.id}/cancel`],
      ['GET', `/v1/sessions/${session.id}/history`],
      ['GET', `/v1/sessions/${session.id}/link`],
      ['POST', `/v1/sessions/${session.id}/charge`, { paymentMethod: credit, paymentSource: approvedCard() }],
    ] as Array<[string, string, Json?]>) {
      expect([method, route, (await api(method, route, { auth: bob, body })).status]).toEqual([method, route, 404]);
    }
    const list = await api<{ items: unknown[] }>('GET', `/v1/sessions?id=${session.id}`, { auth: bob });
    expect(list.body.items).toEqual([]);
  });

  it("a session's key pays that session only and reaches nothing else", async () => {
    const a = (await createSession({ maxPayments: -1 })).body;
    const b = (await createSession({ maxPayments: -1 })).body;
    expect((await pay(b, { paymentMethod: credit, paymentSource: approvedCard() }, a.publicKey)).status).toBe(401);
    expect((await api('GET', `/v1/sessions/${a.id}`, { auth: { clientId: alice.clientId, apiKey: a.publicKey } })).status).toBe(401);
    expect((await api('GET', '/v1/charges', { auth: { clientId: alice.clientId, apiKey: a.publicKey } })).status).toBe(401);
    expect((await api('POST', `/v1/sessions/${a.id}/charge`, { auth: { clientId: bob.clientId, apiKey: a.publicKey }, body: { paymentMethod: credit, paymentSource: approvedCard() } })).status).toBe(401);
    expect((await pay(a)).status).toBe(201);
    expect((await (await api<Session>('GET', `/v1/sessions/${b.id}`, { auth: alice })).body.multiplePayments.paymentCount)).toBe(0);
  });

  it('updates and cancels, and lists with filters', async () => {
    const session = (await createSession({ maxPayments: -1, orderId: 'order-filter' })).body;
    const off = await api('PATCH', `/v1/sessions/${session.id}`, { auth: alice, body: { isActive: false } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ id: session.id, isActive: false });
    expect((await pay(session)).body.error.businessCode).toBe('session_disabled');
    const listed = await api<{ items: Array<{ id: string }> }>('GET', '/v1/sessions?orderId=order-filter&isActive=false', { auth: alice });
    expect(listed.body.items.map((s) => s.id)).toEqual([session.id]);
    const canceled = await api('POST', `/v1/sessions/${session.id}/cancel`, { auth: alice });
    expect(canceled.status).toBe(201);
    expect(canceled.body).toEqual({ id: session.id, status: 'canceled' });
    const link = await api<{ session: Session }>('GET', `/v1/sessions/${session.id}/link`, { auth: alice });
    expect(link.status).toBe(200);
    expect(link.body.session.status).toBe('canceled');
  });
});
