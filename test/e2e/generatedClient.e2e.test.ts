/**
 * The OpenAPI document as a contract, tested the way an integrator uses it: a client generated from the document
 * (openapi-fetch over the types openapi-typescript writes from gateway/dist/openapi.json at build time) drives
 * customers, charges, sessions and webhooks on the real platform.
 *
 * Drift between the document and the API fails here twice over. A request or a field the document does not have
 * fails `npm run typecheck` (this file is type-checked against the generated types). And every answer is checked,
 * as it arrives, against the schema the document gives for its path, method and status: a status the document does
 * not list, or a body that does not match, fails the test that got it.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { components, paths } from '@platform/gateway/dist/openapi';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import { eventually } from '@platform/testkit';
import { WebhookReceiver, type Delivered } from './receiver';
import { startTestPlatform, type TestPlatform } from './platform';

type Schemas = components['schemas'];
type Api = Client<paths>;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  servers: unknown;
}

const DOCUMENT_FILE = path.resolve(__dirname, '..', '..', 'gateway', 'dist', 'openapi.json');
const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as OpenApiDocument;

// The document is JSON Schema 2020-12 inside OpenAPI 3.1; its own keywords (discriminator, example) are annotations here.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(document, 'openapi.json');
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** What the document says a JSON answer to `method path` with `status` is; undefined when it lists no such answer. */
function documentedAnswer(schemaPath: string, method: string, status: number): ValidateFunction | 'no body' | undefined {
  const response = document.paths[schemaPath]?.[method.toLowerCase()]?.responses[String(status)];
  if (!response) return undefined;
  if (!response.content?.['application/json']) return 'no body';
  return ajv.getSchema(`openapi.json#/${pointer('paths', schemaPath, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`);
}

/** Every answer checked against the document: the failures of a test are named after the request that had them. */
const conformance: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const where = `${request.method} ${schemaPath} → ${response.status}`;
    const documented = documentedAnswer(schemaPath, request.method, response.status);
    if (documented === undefined) throw new Error(`${where}: the document lists no such answer`);
    if (documented === 'no body') return undefined;
    const body: unknown = await response.clone().json();
    if (!documented(body)) throw new Error(`${where}: the answer does not match the document: ${ajv.errorsText(documented.errors)}\n${JSON.stringify(body).slice(0, 2000)}`);
    return undefined;
  },
};

function client(baseUrl: string, headers: Record<string, string>): Api {
  const api = createClient<paths>({ baseUrl, headers });
  api.use(conformance);
  return api;
}

interface Result<T, E> {
  data?: T;
  error?: E;
  response: Response;
}

/** The body of an answer expected to succeed with `status`; any other answer fails with what the gateway said. */
function ok<T, E>(result: Result<T, E>, status: number): T {
  expect({ status: result.response.status, error: result.error }).toEqual({ status, error: undefined });
  return result.data as T;
}

/** The error envelope of an answer expected to fail with `status`. */
function failed<T, E>(result: Result<T, E>, status: number): E {
  expect({ status: result.response.status, data: result.data }).toEqual({ status, data: undefined });
  return result.error as E;
}

const nextYear = new Date().getUTCFullYear() + 1;
/** SANDBOX test cards: the last digit decides; a CVV ending 0 is validated. */
const APPROVED: Schemas['CardInput'] = { cardHolderName: 'Ana Souza', cardNumber: '4000000000000010', cardCvv: '120', cardExpirationDate: `12/${nextYear}` };
const DECLINED: Schemas['CardInput'] = { ...APPROVED, cardNumber: '4000000000000002' };
const NOT_A_CARD: Schemas['CardInput'] = { ...APPROVED, cardNumber: '4000000000000011' };

interface Received extends Delivered {
  verified: boolean;
}

/** A receiver as an integrator writes it with the standard's library and the secret the registration answered. */
class VerifyingReceiver extends WebhookReceiver<Received> {
  secret = '';
  protected receive(request: Delivered, res: ServerResponse): Received {
    let verified = false;
    try {
      new Webhook(this.secret).verify(request.body, request.headers as Record<string, string>);
      verified = true;
    } catch {
      verified = false;
    }
    res.statusCode = verified ? 200 : 401;
    res.end();
    return { ...request, verified };
  }
}

describe('a client generated from the OpenAPI document, on the real platform', () => {
  let platform: TestPlatform;
  let api: Api;
  let clientId: string;
  let merchantId: string;
  const receiver = new VerifyingReceiver();

  beforeAll(async () => {
    await receiver.start();
    platform = await startTestPlatform('e2egen');
    const admin = client(platform.adminUrl, { 'x-admin-token': platform.adminToken });
    const account = ok(await admin.POST('/admin/v1/clients', { body: { name: 'Generated Store', environment: 'sandbox' } }), 201);
    clientId = account.clientId;
    api = client(platform.gatewayUrl, { 'x-client-id': account.clientId, 'x-api-key': account.apiKey });
    const merchant = ok(
      await api.POST('/v1/merchants', {
        body: { mcc: '5999', name: 'Generated Store', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
      }),
      201,
    );
    merchantId = merchant.id;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver.stop();
  });

  it('serves the document the client was generated from', async () => {
    const served = ok(await api.GET('/v1/openapi.json'), 200) as unknown as OpenApiDocument;
    // The generators' document is the public one with the admin listener's paths (and their schemas) beside.
    const publicPaths = Object.fromEntries(Object.entries(document.paths).filter(([route]) => !route.startsWith('/admin')));
    expect(served.paths).toEqual(publicPaths);
    const schemas = (d: OpenApiDocument) => (d as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas;
    for (const [name, schema] of Object.entries(schemas(served))) expect({ name, schema }).toEqual({ name, schema: schemas(document)[name] });
    // The gateway names itself by its PUBLIC_URL: localhost and the port it listens on.
    expect(served.servers).toEqual([{ url: `http://localhost:${new URL(platform.gatewayUrl).port}`, description: expect.any(String) }]);
  });

  it('customers: creates, lists by e-mail, reads, updates and deletes; a duplicate is a 409 envelope', async () => {
    const body: Schemas['CreateCustomerRequest'] = {
      name: 'Ana Souza',
      email: 'ana.generated@example.com',
      phoneNumber: '+55 11 99999-0000',
      document: { type: 'cpf', number: '529.982.247-25', country: 'BR' },
      address: { street: 'Av. Paulista', streetNumber: '1000', city: 'São Paulo', state: 'SP', zipCode: '01310100', country: 'BR' },
    };
    const created = ok(await api.POST('/v1/customers', { body, params: { header: { 'x-idempotency-key': 'customer-ana' } } }), 201);
    expect(created).toMatchObject({ clientId, name: 'Ana Souza', email: body.email, document: { type: 'cpf', number: '52998224725', country: 'BR' } });
    // The same key and body: the first answer again.
    const replayed = ok(await api.POST('/v1/customers', { body, params: { header: { 'x-idempotency-key': 'customer-ana' } } }), 201);
    expect(replayed.id).toBe(created.id);

    const duplicate = failed(await api.POST('/v1/customers', { body: { ...body, document: { type: 'cpf', number: '111.444.777-35' } } }), 409);
    expect(duplicate.error).toMatchObject({ code: 409, type: 'invalid_request_error' });

    const listed = ok(await api.GET('/v1/customers', { params: { query: { email: body.email, limit: 10 } } }), 200);
    expect(listed.items.map((c) => c.id)).toEqual([created.id]);
    expect(listed.meta).toMatchObject({ totalItems: 1, currentPage: 1 });

    const fetched = ok(await api.GET('/v1/customers/{id}', { params: { path: { id: created.id } } }), 200);
    expect(fetched).toEqual(created);
    const updated = ok(await api.PATCH('/v1/customers/{id}', { params: { path: { id: created.id } }, body: { name: 'Ana M. Souza', address: { complement: 'Sala 5' } } }), 200);
    expect(updated).toMatchObject({ id: created.id, name: 'Ana M. Souza', address: { street: 'Av. Paulista', complement: 'Sala 5' } });

    ok(await api.DELETE('/v1/customers/{id}', { params: { path: { id: created.id } } }), 200);
    const gone = failed(await api.GET('/v1/customers/{id}', { params: { path: { id: created.id } } }), 404);
    expect(gone.error).toMatchObject({ code: 404, key: 'not_found' });

    const invalid = failed(await api.POST('/v1/customers', { body: { ...body, email: 'not an e-mail' } }), 400);
    expect(invalid.error.details).toEqual([{ field: 'email', message: expect.any(String) }]);
  });

  it('charges: tokenizes a SANDBOX card, saves it, authorizes, captures part, refunds the rest; a decline and a bad number', async () => {
    const token = ok(await api.POST('/v1/tokens', { body: APPROVED }), 201);
    const card = ok(await api.POST('/v1/cards', { body: { tokenId: token.tokenId, merchantId, cvvCheck: true } }), 201);
    expect(card).toMatchObject({ status: 'active', first6digits: '400000', last4digits: '0010', cvvChecked: true, clientId });
    expect(JSON.stringify(card)).not.toContain(APPROVED.cardNumber);

    const authorized = ok(
      await api.POST('/v1/charges', {
        params: { header: { 'x-idempotency-key': `order-${card.id}` } },
        body: {
          merchantId,
          amount: 10_000,
          currency: 'BRL',
          capture: false,
          orderId: 'order-1001',
          paymentMethod: { paymentType: 'credit', installments: 1 },
          paymentSource: { sourceType: 'card', cardId: card.id },
        },
      }),
      201,
    );
    expect(authorized).toMatchObject({ status: 'pre_authorized', amount: 10_000, capturedAmount: 0, paymentSource: { sourceType: 'card', cardId: card.id, last4digits: '0010' } });

    const captured = ok(await api.POST('/v1/charges/{id}/capture', { params: { path: { id: authorized.id } }, body: { amount: 6_000 } }), 201);
    expect(captured).toMatchObject({ status: 'authorized', capturedAmount: 6_000 });
    const refunded = ok(await api.POST('/v1/charges/{id}/void', { params: { path: { id: authorized.id } }, body: { amount: 6_000 } }), 201);
    expect(refunded).toMatchObject({ status: 'voided', refundedAmount: 6_000 });
    const tooMuch = failed(await api.POST('/v1/charges/{id}/void', { params: { path: { id: authorized.id } }, body: { amount: 1 } }), 422);
    expect(tooMuch.error).toMatchObject({ code: 422, businessCode: expect.any(String) });

    const fetched = ok(await api.GET('/v1/charges/{id}', { params: { path: { id: authorized.id } } }), 200);
    expect(fetched.transactionRequests.length).toBeGreaterThanOrEqual(3);
    const listed = ok(await api.GET('/v1/charges', { params: { query: { merchantId, orderId: 'order-1001' } } }), 200);
    expect(listed.items.map((c) => c.id)).toEqual([authorized.id]);

    // An inline card, voided whole before capture.
    const inline = ok(
      await api.POST('/v1/charges', {
        body: { merchantId, amount: 2_500, capture: false, paymentMethod: { paymentType: 'credit', installments: 2 }, paymentSource: { sourceType: 'card', card: APPROVED } },
      }),
      201,
    );
    expect(ok(await api.POST('/v1/charges/{id}/void', { params: { path: { id: inline.id } }, body: {} }), 201).status).toBe('voided');

    // The SANDBOX declines a card ending 2: still a charge, failed with its reason.
    const declined = ok(
      await api.POST('/v1/charges', { body: { merchantId, amount: 1_000, paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'card', card: DECLINED } } }),
      201,
    );
    expect(declined.status).toBe('failed');
    expect(declined.transactionRequests.at(-1)).toMatchObject({ declinedCode: expect.any(String) });
    // A number that is no card is refused before any provider: 402 with the decline code.
    const refused = failed(
      await api.POST('/v1/charges', { body: { merchantId, amount: 1_000, paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'card', card: NOT_A_CARD } } }),
      402,
    );
    expect(refused.error).toMatchObject({ code: 402, type: 'card_declined', declinedCode: expect.any(String) });

    // Pix: pending with its QR code until the sandbox status route settles it.
    const customer = ok(
      await api.POST('/v1/customers', {
        body: { name: 'Bruno Lima', email: 'bruno.generated@example.com', phoneNumber: '+55 21 98888-7777', document: { type: 'cpf', number: '111.444.777-35' } },
      }),
      201,
    );
    const pix = ok(
      await api.POST('/v1/charges', {
        body: { merchantId, amount: 2_000, paymentMethod: { paymentType: 'pix', expiresIn: 3_600 }, paymentSource: { sourceType: 'customer', customerId: customer.id } },
      }),
      201,
    );
    expect(pix).toMatchObject({ status: 'pending', paymentMethod: { paymentType: 'pix', qrCodeData: expect.any(String) } });
    const settled = ok(await api.POST('/v1/charges/{id}', { params: { path: { id: pix.id } }, body: { status: 'authorized' } }), 200);
    expect(settled.status).toBe('authorized');
  });

  it('sessions: a payment link paid once with its public key, then closed; its history and link; another canceled', async () => {
    const session = ok(
      await api.POST('/v1/sessions', {
        body: {
          merchantId,
          name: 'Order 42',
          orderId: 'order-42',
          paymentMethods: [{ paymentType: 'credit', installments: 3 }, { paymentType: 'pix', expiresIn: 3_600 }],
          items: [
            { name: 'T-shirt', unitPrice: 4_000, quantity: 2 },
            { name: 'Shipping', unitPrice: 1_500, quantity: 1 },
          ],
        },
      }),
      201,
    );
    expect(session).toMatchObject({ status: 'created', amount: 9_500, currency: 'BRL', isActive: true, multiplePayments: { allow: false } });
    expect(session.paymentLink).toBe(`http://localhost:${new URL(platform.gatewayUrl).port}/checkout/${session.id}`);

    // The buyer's side holds only the session's public key.
    const buyer = client(platform.gatewayUrl, { 'x-client-id': clientId, 'x-api-key': session.publicKey });
    const paid = ok(
      await buyer.POST('/v1/sessions/{id}/charge', {
        params: { path: { id: session.id } },
        body: { paymentMethod: { paymentType: 'credit', installments: 3 }, paymentSource: { sourceType: 'card', card: APPROVED } },
      }),
      201,
    );
    expect(paid).toMatchObject({ status: 'authorized', amount: 9_500, sessionId: session.id });
    failed(await buyer.GET('/v1/charges/{id}', { params: { path: { id: paid.id } } }), 401);

    const status = async () => ok(await api.GET('/v1/sessions/{id}', { params: { path: { id: session.id } } }), 200).status;
    await eventually(async () => ((await status()) === 'paid' ? true : undefined), 'the session paid');
    const again = failed(
      await buyer.POST('/v1/sessions/{id}/charge', {
        params: { path: { id: session.id } },
        body: { paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'card', card: APPROVED } },
      }),
      422,
    );
    expect(again.error.businessCode).toBe('session_disabled');

    const history = ok(await api.GET('/v1/sessions/{id}/history', { params: { path: { id: session.id } } }), 200);
    expect(history.map((h) => h.status)).toContain('paid');
    const link = ok(await api.GET('/v1/sessions/{id}/link', { params: { path: { id: session.id } } }), 200);
    expect(link.session.id).toBe(session.id);
    const listed = ok(await api.GET('/v1/sessions', { params: { query: { orderId: 'order-42' } } }), 200);
    expect(listed.items.map((s) => s.id)).toEqual([session.id]);

    const other = ok(await api.POST('/v1/sessions', { body: { merchantId, paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Mug', unitPrice: 3_000, quantity: 1 }] } }), 201);
    const canceled = ok(await api.POST('/v1/sessions/{id}/cancel', { params: { path: { id: other.id } } }), 201);
    expect(canceled).toMatchObject({ id: other.id, status: 'canceled' });
  });

  it('webhooks: registers for an event, receives the signed delivery of a charge, lists it, rotates the secret and deletes', async () => {
    const catalogue = ok(await api.GET('/v1/webhooks/event-types'), 200);
    expect(catalogue.items.map((e) => e.name)).toEqual(expect.arrayContaining(['authorized', 'voided']));

    const endpoint = receiver.endpoint();
    const webhook = ok(await api.POST('/v1/webhooks', { body: { event: 'authorized', endpoint, version: 1.1 } }), 201);
    expect(webhook).toMatchObject({ event: 'authorized', endpoint, version: 1.1, status: true, secret: expect.stringMatching(/^whsec_/) });
    receiver.secret = webhook.secret ?? '';
    expect(failed(await api.POST('/v1/webhooks', { body: { event: 'voided', endpoint } }), 409).error.code).toBe(409);

    const charge = ok(
      await api.POST('/v1/charges', { body: { merchantId, amount: 4_200, paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'card', card: APPROVED } } }),
      201,
    );
    expect(charge.status).toBe('authorized');
    const ofCharge = () => receiver.at(endpoint).filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === charge.id);
    const delivered = await eventually(() => ofCharge()[0], 'the delivery of the charge');
    expect(delivered.verified).toBe(true);
    expect(JSON.parse(delivered.body)).toMatchObject({ event: 'authorized', data: { id: charge.id, status: 'authorized', clientId } });

    const deliveries = await eventually(async () => {
      const page = ok(await api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: webhook.id } } }), 200);
      return page.items.some((d) => d.status === 'succeeded') ? page : undefined;
    }, 'the delivery logged as succeeded');
    expect(deliveries.items).toEqual([expect.objectContaining({ webhookId: webhook.id, eventId: expect.any(String), event: 'authorized', status: 'succeeded' })]);
    expect(ofCharge()).toHaveLength(1);

    const rotated = ok(await api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: webhook.id } } }), 200);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    const paused = ok(await api.PATCH('/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body: { status: false } }), 200);
    expect(paused.status).toBe(false);
    const listed = ok(await api.GET('/v1/webhooks'), 200);
    expect(listed.items.map((w) => w.id)).toContain(webhook.id);
    ok(await api.DELETE('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } }), 204);
    expect(failed(await api.GET('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } }), 404).error.key).toBe('not_found');
  });
});
