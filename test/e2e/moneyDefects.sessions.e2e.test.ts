import { randomInt } from 'node:crypto';
import { cardNumberEnding } from '@platform/testkit';
import { apiClient, createClient, naturalPerson, startTestPlatform, type Credentials, type TestPlatform } from './platform';

/**
 * Defects of payment links found by an attacker, through the whole platform: the buyer's installments stay within
 * the link's offer; the session's public key pays only with what a buyer brings (a token only when it was made with
 * that session's key); a link's split is checked as a charge's; declined and timed-out attempts do not keep buyers
 * of a 1:N link out.
 */
type Json = Record<string, unknown>;
interface Session extends Json {
  id: string;
  publicKey: string;
  multiplePayments: { allow: boolean; maxPayments: number; paymentCount: number; pendingCount: number; status: string };
}
interface ApiError {
  error: { code: number; businessCode?: string; key?: string; details?: Array<{ field: string; message: string }> };
}
type Answer = Json & ApiError & { id?: string; status?: string; paymentMethod?: { installments?: number }; paymentSource?: Json };

const PROVIDER_TIMEOUT_MS = 1000;
const expiration = `12/${new Date().getUTCFullYear() + 5}`;
const typedCard = (ending: string | number = 0) => ({ cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(ending), cardCvv: '870', cardExpirationDate: expiration });
const credit = (installments = 1) => ({ paymentType: 'credit', installments });
const buyer = () => {
  const n = String(randomInt(10_000_000_000, 99_999_999_999));
  return { name: `Ana ${n}`, email: `ana.${n}@example.com`, document: { type: 'cpf', number: n, country: 'BR' } };
};

describe('payment links: defects found by an attacker', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let alice: Credentials;
  let merchantId: string;

  const createSession = (body: Json = {}) =>
    api<Session & ApiError>('POST', '/v1/sessions', {
      auth: alice,
      body: { merchantId, name: 'Blue mugs', paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2 }], ...body },
    });
  /** A buyer pays with the session's own key, as the checkout page does. */
  const pay = (session: Session, body: Json) =>
    api<Answer>('POST', `/v1/sessions/${session.id}/charge`, { auth: { clientId: alice.clientId, apiKey: session.publicKey }, body });
  const detail = async (id: string) => (await api<Session>('GET', `/v1/sessions/${id}`, { auth: alice })).body;
  const fields = (answer: { body: ApiError }) => (answer.body.error?.details ?? []).map((d) => d.field);

  beforeAll(async () => {
    platform = await startTestPlatform('e2emoneysess', { PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) });
    api = apiClient(platform.gatewayUrl);
    alice = await createClient(platform.adminUrl, platform.adminToken, 'Alice Links');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: alice,
      body: { mcc: '5999', name: 'Loja Links', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
  }, 180_000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('keeps the installments a buyer picks within the link offer', async () => {
    const session = (await createSession({ maxPayments: -1, paymentMethods: [{ paymentType: 'credit', installments: 3 }] })).body;
    for (const installments of [12, 24, 4]) {
      const answer = await pay(session, { paymentMethod: credit(installments), paymentSource: { sourceType: 'card', card: typedCard() } });
      expect([answer.status, fields(answer)]).toEqual([400, ['paymentMethod.installments']]);
    }
    const withinOffer = await pay(session, { paymentMethod: credit(3), paymentSource: { sourceType: 'card', card: typedCard() } });
    expect(withinOffer.status).toBe(201);
    expect(withinOffer.body).toMatchObject({ status: 'authorized', paymentMethod: { installments: 3 } });
    // A link that names no installments is paid in one.
    const single = (await createSession({ maxPayments: -1 })).body;
    const two = await pay(single, { paymentMethod: credit(2), paymentSource: { sourceType: 'card', card: typedCard() } });
    expect([two.status, fields(two)]).toEqual([400, ['paymentMethod.installments']]);
    expect(await detail(session.id)).toMatchObject({ multiplePayments: { paymentCount: 1, pendingCount: 0 } });
    expect(await detail(single.id)).toMatchObject({ multiplePayments: { paymentCount: 0, pendingCount: 0 } });
  });

  it("pays with what a buyer brings only: never a saved card, a client's token or another customer", async () => {
    const created = async (route: string, body: Json) => {
      const response = await api<Json>('POST', route, { auth: alice, body });
      if (response.status !== 201) throw new Error(`${route}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    };
    const customer = await created('/v1/customers', { ...buyer(), phoneNumber: '+55 11 99999-0000' });
    const savedToken = await created('/v1/tokens', typedCard(1));
    const card = await created('/v1/cards', { tokenId: savedToken.tokenId, merchantId });
    expect((await api('POST', `/v1/customers/${String(customer.id)}/cards`, { auth: alice, body: { cardId: card.id } })).status).toBe(204);
    const clientToken = await created('/v1/tokens', typedCard(1));
    const session = (await createSession({ maxPayments: -1, paymentMethods: [{ paymentType: 'credit' }, { paymentType: 'pix', expiresIn: 600 }] })).body;

    const refused: Array<[string, Json, string]> = [
      ['a saved card, without CVV', { paymentMethod: credit(), paymentSource: { sourceType: 'card', cardId: card.id } }, 'paymentSource.cardId'],
      ['a saved card, with a CVV', { paymentMethod: credit(), paymentSource: { sourceType: 'card', cardId: card.id, cardCvv: '870' } }, 'paymentSource.cardId'],
      ["a customer's saved card", { paymentMethod: credit(), paymentSource: { sourceType: 'customer', customerId: customer.id, cardId: card.id } }, 'paymentSource.customerId,paymentSource.cardId'],
      ['a stored customer', { customerId: customer.id, paymentMethod: credit(), paymentSource: { sourceType: 'card', card: typedCard() } }, 'customerId'],
      ['a stored customer, for Pix', { paymentMethod: { paymentType: 'pix', expiresIn: 600 }, paymentSource: { sourceType: 'customer', customerId: customer.id } }, 'paymentSource.customerId'],
    ];
    for (const [what, body, field] of refused) {
      const answer = await pay(session, body);
      expect([what, answer.status, fields(answer)]).toEqual([what, 400, field.split(',')]);
      // Nothing of the saved card is shown.
      expect(JSON.stringify(answer.body)).not.toMatch(/Ana Souza|first6|last4|expiration/);
    }
    // The refused attempts used nothing up: the client's token still saves a card.
    expect((await api('POST', '/v1/cards', { auth: alice, body: { tokenId: clientToken.tokenId } })).status).toBe(201);

    // What a buyer brings pays: a card typed into the page, Pix with the buyer's data.
    const typed = await pay(session, { paymentMethod: credit(), paymentSource: { sourceType: 'card', card: typedCard() } });
    expect(typed.body).toMatchObject({ status: 'authorized' });
    const pix = await pay(session, { paymentMethod: { paymentType: 'pix', expiresIn: 600 }, paymentSource: { sourceType: 'customer', customer: buyer() } });
    expect(pix.body).toMatchObject({ status: 'pending' });
    const charges = await api<{ items: Array<{ cardId?: string | null; customerId?: string | null }> }>('GET', `/v1/charges?sessionId=${session.id}`, { auth: alice });
    expect(charges.body.items).toHaveLength(2);
    for (const charge of charges.body.items) expect([charge.cardId ?? null, charge.customerId ?? null]).toEqual([null, null]);
  });

  it("pays with a token only when it was made with that session's public key", async () => {
    const [sessionA, sessionB] = [(await createSession({ maxPayments: -1 })).body, (await createSession({ maxPayments: -1 })).body];
    const tokenize = async (apiKey: string) => {
      const answer = await api<Json & ApiError & { tokenId: string }>('POST', '/v1/tokens', { auth: { clientId: alice.clientId, apiKey }, body: typedCard() });
      expect(answer.status).toBe(201);
      return answer.body.tokenId;
    };
    const byToken = (tokenId: string) => ({ paymentMethod: credit(), paymentSource: { sourceType: 'token', tokenId } });
    const history = async (id: string) => (await api<Json[]>('GET', `/v1/sessions/${id}/history`, { auth: alice })).body;
    const [historyA, historyB] = [await history(sessionA.id), await history(sessionB.id)];
    const clientToken = await tokenize(alice.apiKey);
    const tokenOfA = await tokenize(sessionA.publicKey);

    for (const [what, session, tokenId] of [
      ['a client-made token', sessionA, clientToken],
      ["session A's token on session B", sessionB, tokenOfA],
    ] as const) {
      const answer = await pay(session, byToken(tokenId));
      expect([what, answer.status, answer.body.error?.businessCode]).toEqual([what, 422, 'token_not_for_session']);
    }
    // Nothing was written and no place taken.
    expect(await detail(sessionA.id)).toMatchObject({ multiplePayments: { paymentCount: 0, pendingCount: 0 } });
    expect(await detail(sessionB.id)).toMatchObject({ multiplePayments: { paymentCount: 0, pendingCount: 0 } });
    expect([await history(sessionA.id), await history(sessionB.id)]).toEqual([historyA, historyB]);
    // A made-up session key tokenizes nothing.
    expect((await api('POST', '/v1/tokens', { auth: { clientId: alice.clientId, apiKey: `${sessionA.publicKey}x` }, body: typedCard() })).status).toBe(401);

    const paid = await pay(sessionA, byToken(tokenOfA));
    expect([paid.status, paid.body.status, paid.body.sessionId]).toEqual([201, 'authorized', sessionA.id]);
    expect(await detail(sessionA.id)).toMatchObject({ multiplePayments: { paymentCount: 1, pendingCount: 0 } });

    // A session's token pays that session only: not a charge of the client, nor a saved card.
    const anotherOfA = await tokenize(sessionA.publicKey);
    const charge = await api<Answer>('POST', '/v1/charges', { auth: alice, body: { merchantId, amount: 5000, ...byToken(anotherOfA) } });
    expect([charge.status, charge.body.error?.businessCode]).toEqual([422, 'token_not_for_session']);
    const saved = await api<Answer>('POST', '/v1/cards', { auth: alice, body: { tokenId: anotherOfA } });
    expect([saved.status, saved.body.error?.businessCode]).toEqual([422, 'token_not_for_session']);
    // The client's own token, refused on the session, still pays the client's own charge.
    const own = await api<Answer>('POST', '/v1/charges', { auth: alice, body: { merchantId, amount: 5000, ...byToken(clientToken) } });
    expect([own.status, own.body.status]).toEqual([201, 'authorized']);
  });

  it("refuses a link whose split does not add up or names a seller twice, as a charge's split is refused", async () => {
    const sellers: string[] = [];
    for (const email of ['ana.split@example.com', 'bia.split@example.com']) {
      const seller = await api<{ id: string; status: string }>('POST', '/v1/sellers', { auth: alice, body: naturalPerson(merchantId, email) });
      expect(seller.body.status).toBe('active');
      sellers.push(seller.body.id);
    }
    const [ana, bia] = sellers as [string, string];
    const split150 = [{ sellerId: ana, percentage: 10_000 }, { sellerId: bia, percentage: 5_000 }];
    const twice = [{ sellerId: ana, percentage: 5_000 }, { sellerId: ana, percentage: 5_000 }];
    const charge = (splitRules: Json[]) =>
      api<ApiError>('POST', '/v1/charges', {
        auth: alice,
        body: { merchantId, amount: 5000, paymentMethod: credit(), paymentSource: { sourceType: 'card', card: typedCard() }, splitRules },
      });
    for (const splitRules of [split150, twice]) {
      const asCharge = await charge(splitRules);
      expect(asCharge.status).toBe(400);
      const asLink = await createSession({ splitRules });
      expect([asLink.status, fields(asLink)]).toEqual([400, fields(asCharge)]);
    }
    const sessions = await api<{ items: Array<{ splitRules: unknown[] }> }>('GET', '/v1/sessions?limit=100', { auth: alice });
    expect(sessions.body.items.filter((s) => s.splitRules.length > 0)).toEqual([]);
    // A split that adds up is a link that pays.
    const good = await createSession({ splitRules: [{ sellerId: ana, percentage: 6_000 }, { sellerId: bia, amount: 2_000 }] });
    expect(good.status).toBe(201);
    expect((await pay(good.body, { paymentMethod: credit(), paymentSource: { sourceType: 'card', card: typedCard() } })).body).toMatchObject({ status: 'authorized' });
  });

  it('a 5-payment link met by 40 buyers at once, most declined or timing out, still takes 5 payments', async () => {
    const session = (await createSession({ maxPayments: 5 })).body;
    // Card numbers ending 02 are declined, ending 6 time out at the provider, ending 0 are approved.
    const endings = [...Array<string>(20).fill('02'), ...Array<string>(10).fill('6'), ...Array<string>(10).fill('0')];
    // A buyer told that payments are still in progress (409) tries again, as the checkout page asks: how long the
    // attempts ahead take depends on the machine's load, not on the rules under test.
    const payUntilAnswered = async (ending: string) => {
      for (let attempt = 1; ; attempt += 1) {
        const answer = await pay(session, { paymentMethod: credit(), paymentSource: { sourceType: 'card', card: typedCard(ending) } });
        if (answer.status !== 409 || (answer.body.error.businessCode ?? answer.body.error.key) !== 'session_payments_in_progress' || attempt === 30) return answer;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const answers = await Promise.all(endings.map(async (ending) => ({ ending, answer: await payUntilAnswered(ending) })));
    const outcome = ({ answer }: { answer: { status: number; body: Answer } }) =>
      answer.status === 201 ? String(answer.body.status) : `${answer.status} ${answer.body.error.businessCode ?? answer.body.error.key ?? ''}`;
    const approved = answers.filter((a) => a.ending === '0').map(outcome);
    // Every approved card is paid until the link is full; only then is a buyer told the limit is reached.
    expect(approved.filter((o) => o === 'authorized')).toHaveLength(5);
    expect(approved.filter((o) => o !== 'authorized')).toEqual(Array(5).fill('422 multiple_payments_limit_reached'));
    for (const a of answers.filter((x) => x.ending !== '0')) expect(['failed', '422 multiple_payments_limit_reached']).toContain(outcome(a));
    expect((await detail(session.id)).multiplePayments).toEqual({ allow: true, maxPayments: 5, paymentCount: 5, pendingCount: 0, status: 'disabled' });
  }, 120_000);
});
