import { randomInt } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { EVENTS_STREAM, type DomainEvent } from '@platform/kit';
import { testNatsUrl } from '@platform/testkit';
import { apiClient, createClient, naturalPerson, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;

/** A Luhn-valid Visa number ending 0: the SANDBOX approves it. */
function approvedCard(): string {
  for (;;) {
    const body = `4${Array.from({ length: 14 }, () => randomInt(10)).join('')}`;
    let sum = 0;
    for (let i = 0; i < body.length; i++) {
      let d = Number(body[body.length - 1 - i]);
      if (i % 2 === 0) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    if ((10 - (sum % 10)) % 10 === 0) return `${body}0`;
  }
}

/**
 * The first event of this client on `subject` whose data is the resource `id`, read from JetStream (every suite
 * shares the stream, so other clients' events are skipped).
 */
async function eventOf(nc: NatsConnection, clientId: string, subject: string, id: string): Promise<DomainEvent<Json>> {
  const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, { filterSubjects: subject });
  const messages = await consumer.consume();
  const timer = setTimeout(() => void messages.close(), 30_000);
  try {
    for await (const message of messages) {
      const event = JSON.parse(Buffer.from(message.data).toString('utf8')) as DomainEvent<Json>;
      if (event.clientId === clientId && event.data.id === id) return event;
    }
  } finally {
    clearTimeout(timer);
    await messages.close();
  }
  throw new Error(`no ${subject} event for ${id} within 30 s`);
}

describe('one public shape: the REST answer of a payments resource is the data of its event', () => {
  let platform: TestPlatform;
  let nc: NatsConnection;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  const call = <T = Json>(method: string, route: string, body?: unknown) => api<T>(method, route, { auth: client, body });

  beforeAll(async () => {
    platform = await startTestPlatform('e2eshape');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Shapes Store');
    nc = await connect({ servers: testNatsUrl() });
  });
  afterAll(async () => {
    await nc?.close();
    await platform?.stop();
  });

  it('shows a merchant, a card and a charge the same way in the API and in payments.* events', async () => {
    const merchant = await call<{ id: string }>('POST', '/v1/merchants', {
      mcc: '5999',
      name: 'Loja Forma',
      merchantName: 'LOJA FORMA',
      merchantUrl: 'https://forma.example.com',
      providers: [
        { name: 'sandbox-a', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret-a' }, options: { region: 'br' } },
        { name: 'sandbox-b', priority: 2, credentials: { type: 'SANDBOX', apiKey: 'provider-secret-b' } },
      ],
    });
    expect(merchant.status).toBe(201);

    const token = await call<{ tokenId: string }>('POST', '/v1/tokens', {
      cardHolderName: 'Ana Souza',
      cardNumber: approvedCard(),
      cardCvv: '123',
      cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}`,
    });
    expect(token.status).toBe(201);
    const card = await call<{ id: string }>('POST', '/v1/cards', { tokenId: token.body.tokenId });
    expect(card.status).toBe(201);

    const seller = await call<{ id: string }>('POST', '/v1/sellers', naturalPerson(merchant.body.id, 'forma@example.com'));
    expect(seller.status).toBe(201);
    const charge = await call<{ id: string; status: string }>('POST', '/v1/charges', {
      merchantId: merchant.body.id,
      amount: 10_000,
      currency: 'BRL',
      orderId: 'order-shape-1',
      statementDescriptor: 'LOJA FORMA',
      description: 'Two shirts',
      paymentMethod: { paymentType: 'credit', installments: 2 },
      paymentSource: { sourceType: 'card', cardId: card.body.id, cardCvv: '123' },
      splitRules: [{ sellerId: seller.body.id, percentage: 10_000, liable: true }],
      appInfo: { platform: 'web' },
    });
    expect(charge.status).toBe(201);
    expect(charge.body.status).toBe('authorized');

    const readMerchant = await call<Json>('GET', `/v1/merchants/${merchant.body.id}`);
    const readCard = await call<Json>('GET', `/v1/cards/${card.body.id}`);
    const readCharge = await call<Json>('GET', `/v1/charges/${charge.body.id}`);
    expect([readMerchant.status, readCard.status, readCharge.status]).toEqual([200, 200, 200]);

    const merchantEvent = await eventOf(nc, client.clientId, 'payments.merchant.created', merchant.body.id);
    const cardEvent = await eventOf(nc, client.clientId, 'payments.card.created', card.body.id);
    const chargeEvent = await eventOf(nc, client.clientId, 'payments.charge.authorized', charge.body.id);

    expect(merchantEvent.data).toEqual(readMerchant.body);
    expect(cardEvent.data).toEqual(readCard.body);
    expect(chargeEvent.data).toEqual(readCharge.body);
    // What the two once disagreed on.
    expect((readCharge.body.transactionRequests as Json[])[0]).toMatchObject({ providerAuthorization: expect.any(Object), splitRules: [] });
    expect(JSON.stringify([merchantEvent, cardEvent, chargeEvent])).not.toMatch(/provider-secret|cardNumber|cardCvv/);
  });
});
