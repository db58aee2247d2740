/**
 * The public Node SDK's sessions methods (`malga`, pinned in the root package.json) against the platform, as an
 * integrator calls them: create, find, list, disable, enable and cancel, and charges.create with a sessionId and
 * the session's publicKey (what a checkout page calls). Only MALGA_API_URL points it here.
 *
 * charges.create tokenizes a typed card (POST /v1/tokens, with the key the SDK was made with) and then pays with the
 * token. A session is paid only with a token made with its own publicKey: the buyer's SDK is made with that key (as a
 * checkout page holds it, never the client's), and a card the merchant's SDK tokenized with the client key is refused.
 */
import { Malga } from 'malga';
import { apiClient, createClient, startTestPlatform, type TestPlatform } from './platform';

describe('the Node SDK on sessions', () => {
  let platform: TestPlatform;
  let malga: Malga;
  let merchantId: string;
  let clientId: string;

  beforeAll(async () => {
    platform = await startTestPlatform('e2esesssdk');
    const credentials = await createClient(platform.adminUrl, platform.adminToken, 'SDK Links');
    const merchant = await apiClient(platform.gatewayUrl)<{ id: string }>('POST', '/v1/merchants', {
      auth: credentials,
      body: { mcc: '5999', name: 'Loja SDK', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret' } }] },
    });
    merchantId = merchant.body.id;
    clientId = credentials.clientId;
    process.env.MALGA_API_URL = `${platform.gatewayUrl}/v1`;
    malga = new Malga({ clientId: credentials.clientId, apiKey: credentials.apiKey, options: { sandbox: true } });
  });
  afterAll(async () => {
    delete process.env.MALGA_API_URL;
    await platform?.stop();
  });

  it('creates, finds, lists, disables, enables and cancels a session', async () => {
    const created = await malga.sessions.create({
      name: 'First Session',
      amount: 100,
      merchantId,
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
      paymentMethods: [
        { paymentType: 'credit', installments: 1 },
        { paymentType: 'pix', expiresIn: 60 },
      ],
      items: [{ name: 'Product 1', quantity: 1, unitPrice: 100 }],
    });
    expect(created).toMatchObject({ name: 'First Session', amount: 100, status: 'created', isActive: true });
    const id = (created as unknown as { id: string }).id;
    const found = await malga.sessions.find(id);
    expect(found).toMatchObject({ id, publicKey: expect.stringMatching(/^sk_session_/) });
    const listed = await malga.sessions.list({ page: 1, limit: 15 });
    expect((listed as unknown as { items: Array<{ id: string }> }).items.map((s) => s.id)).toEqual([id]);
    expect(await malga.sessions.disable(id)).toEqual({ id, isActive: false });
    expect(await malga.sessions.enable(id)).toEqual({ id, isActive: true });
    expect(await malga.sessions.cancel(id)).toEqual({ id, status: 'canceled' });
    expect(await malga.sessions.find(id)).toMatchObject({ status: 'canceled', isActive: false });
  });

  it('pays a session with charges.create, a sessionId and the session publicKey', async () => {
    const session = (await malga.sessions.create({
      name: 'Paid by the SDK',
      amount: 2_500,
      merchantId,
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
      paymentMethods: [{ paymentType: 'credit', installments: 1 }],
      items: [{ name: 'Product 1', quantity: 1, unitPrice: 2_500 }],
    })) as unknown as { id: string; publicKey: string };
    const card = malga.sandbox.generateCard({ brand: 'Visa', status: 'authorized' });
    const payment = {
      sessionId: session.id,
      publicKey: session.publicKey,
      merchantId,
      amount: 2_500,
      paymentMethod: { type: 'credit', installments: 1, card: { holderName: 'Ana Souza', number: card.number, cvv: card.cvv, expirationDate: card.expirationDate } },
    };
    // The merchant's SDK tokenizes with the client key: that token pays no session.
    await expect(malga.charges.create(payment as never)).rejects.toMatchObject({ error: { code: 422, businessCode: 'token_not_for_session' } });
    expect(await malga.sessions.find(session.id)).toMatchObject({ status: 'created' });
    // The buyer's SDK holds the session's publicKey: the card is tokenized for that session, and pays it.
    const buyer = new Malga({ clientId, apiKey: session.publicKey, options: { sandbox: true } });
    const charge = (await buyer.charges.create(payment as never)) as unknown as { id: string; status: string; amount: number; sessionId: string };
    expect(charge).toMatchObject({ status: 'authorized', amount: 2_500, sessionId: session.id });
    expect(await malga.sessions.find(session.id)).toMatchObject({ status: 'paid' });
  });
});
