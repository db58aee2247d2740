import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { SERVICES } from '@platform/catalog';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, naturalPerson, startTestPlatform, type ApiResponse, type Credentials, type TestPlatform } from './platform';

/**
 * The cross-client matrix: client B owns one of everything; client A calls every client route of the running
 * gateway's OpenAPI document with B's ids in path parameters, in body fields that name ids and in X-Merchant-Id.
 * Nothing may succeed, nothing may fail with a 5xx, B's resources stay as they were, and nothing of A's
 * references B's ids afterwards. Routes are read from /v1/openapi.json, so routes added later are tried too.
 */

type Json = Record<string, unknown>;
type Kind = 'merchant' | 'provider' | 'customer' | 'card' | 'token' | 'charge' | 'flow' | 'webhook' | 'delivery' | 'session' | 'seller' | 'review' | 'plan' | 'batch' | 'order' | 'prepayment' | 'subscription' | 'cycle' | 'report' | 'receipt';
type Ids = Partial<Record<Kind, string>>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
}
interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  minItems?: number;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The resource a path's `{id}` names, by the segment right before it. */
const RESOURCE_OF_SEGMENT: Record<string, Kind> = {
  merchants: 'merchant',
  providers: 'provider',
  customers: 'customer',
  cards: 'card',
  tokens: 'token',
  charges: 'charge',
  flows: 'flow',
  webhooks: 'webhook',
  sessions: 'session',
  sellers: 'seller',
  'registration-reviews': 'review',
  plans: 'plan',
  'payment-batches': 'batch',
  orders: 'order',
  prepayment: 'prepayment',
  subscriptions: 'subscription',
  cycles: 'cycle',
  reports: 'report',
  receipts: 'receipt',
};
/** Id fields whose name is not their resource's: `processId` names a registration review. */
const RESOURCE_OF_NAME: Record<string, Kind> = { process: 'review', paymentbatch: 'batch' };
/**
 * Fields named like ids that are free references, not ids of the platform's resources: the client's order number, and
 * a seller's sales plan at the provider (the provider's own identifier).
 */
const CLIENT_REFERENCES = new Set(['orderId', 'salesPlanId']);
const ALL_KINDS: Kind[] = ['merchant', 'provider', 'customer', 'card', 'token', 'charge', 'flow', 'webhook', 'delivery', 'session', 'seller', 'review', 'plan', 'batch', 'order', 'prepayment', 'subscription', 'cycle', 'report', 'receipt'];

function kindOfName(name: string, path?: string): Kind[] {
  if (name === 'id' && path) {
    const segments = path.split('/').filter(Boolean);
    const segment = segments[segments.indexOf('{id}') - 1] ?? '';
    const kind = RESOURCE_OF_SEGMENT[segment];
    return kind ? [kind] : ALL_KINDS;
  }
  const stem = name.replace(/Id$/, '').toLowerCase();
  const kind = RESOURCE_OF_NAME[stem] ?? ALL_KINDS.find((k) => k === stem);
  return kind ? [kind] : ALL_KINDS;
}

const expiration = `12/${new Date().getUTCFullYear() + 5}`;
const inlineCard = () => ({ cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(1), cardCvv: '870', cardExpirationDate: expiration });
const customerBody = () => {
  const n = String(randomInt(10_000_000_000, 99_999_999_999));
  return {
    name: `Ana ${n}`,
    email: `ana.${n}@example.com`,
    phoneNumber: '+55 11 99999-0000',
    document: { type: 'cpf', number: n, country: 'BR' },
    address: { country: 'BR', state: 'SP', city: 'São Paulo', street: 'Av. Paulista', streetNumber: '1000', zipCode: '01310100' },
  };
};

describe('cross-client access: nothing of one client is reachable by another', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let receiver: Server;
  let receiverUrl: string;
  let a: Credentials;
  let b: Credentials;
  const aIds: Ids = {};
  const bIds: Ids = {};

  const as = async <T = Json>(who: Credentials, method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>> =>
    api<T>(method, route, { auth: who, body, headers });
  const created = async (who: Credentials, method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<Json> => {
    const response = await as(who, method, route, body, headers);
    if (response.status < 200 || response.status > 299) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };

  /** One of everything a client can own; `webhookFirst` so that B's later changes give its webhook deliveries. */
  async function ownEverything(who: Credentials, ids: Ids, endpoint: string): Promise<void> {
    ids.webhook = (await created(who, 'POST', '/v1/webhooks', { event: '*', endpoint })).id as string;
    const merchant = await created(who, 'POST', '/v1/merchants', {
      mcc: '5999',
      name: 'Loja',
      providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret' } }],
    });
    ids.merchant = merchant.id as string;
    ids.provider = (merchant.providers as Json[])[0]!.id as string;
    ids.customer = (await created(who, 'POST', '/v1/customers', customerBody())).id as string;
    ids.token = (await created(who, 'POST', '/v1/tokens', inlineCard())).tokenId as string;
    const forCard = (await created(who, 'POST', '/v1/tokens', inlineCard())).tokenId as string;
    ids.card = (await created(who, 'POST', '/v1/cards', { tokenId: forCard, merchantId: ids.merchant })).id as string;
    await created(who, 'POST', `/v1/customers/${ids.customer}/cards`, { cardId: ids.card });
    ids.charge = (
      await created(who, 'POST', '/v1/charges', {
        merchantId: ids.merchant,
        amount: 5000,
        currency: 'BRL',
        capture: false,
        customerId: ids.customer,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', cardId: ids.card },
      })
    ).id as string;
    ids.flow = (await created(who, 'POST', '/v1/flows', { merchantId: ids.merchant, paymentMethod: 'credit', defaultRoute: [ids.provider] })).id as string;
    await created(who, 'POST', '/v1/settings', { mainColor: '#101010' }, { 'x-merchant-id': ids.merchant });
    ids.seller = (await created(who, 'POST', '/v1/sellers', naturalPerson(ids.merchant, `seller.${randomInt(1_000_000)}@example.com`))).id as string;
    ids.review = (
      await created(who, 'POST', `/v1/sellers/${ids.seller}/registration-reviews`, { reviewType: 'acp', deadlineAt: new Date(Date.now() + 30 * 86_400_000).toISOString() })
    ).processId as string;
    ids.session = (
      await created(who, 'POST', '/v1/sessions', { merchantId: ids.merchant, paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Mug', unitPrice: 1000, quantity: 1 }] })
    ).id as string;
    ids.plan = (await created(who, 'POST', '/v1/subacquirer/plans', { name: 'Own plan' })).id as string;
    // A captured charge split to the seller: receivables, a prepayment simulation, then a settled batch and its order.
    await created(who, 'POST', '/v1/charges', {
      merchantId: ids.merchant,
      amount: 6000,
      currency: 'BRL',
      paymentMethod: { paymentType: 'credit', installments: 2 },
      paymentSource: { sourceType: 'card', card: inlineCard() },
      splitRules: [{ sellerId: ids.seller, percentage: 10_000, processingFee: true, chargeRemainderFee: true, liable: true }],
    });
    await eventually(async () => {
      const listed = await as<{ summary?: { receivableCount: number } }>(who, 'GET', `/v1/subacquirer/prepayment/receivables?sellerId=${ids.seller}`);
      return (listed.body.summary?.receivableCount ?? 0) > 0 ? true : undefined;
    }, 'the split charge in the ledger');
    ids.prepayment = (await created(who, 'POST', '/v1/subacquirer/prepayment', { sellerId: ids.seller, endDate: '2099-12-31' })).id as string;
    const settled = await created(who, 'POST', '/v1/payouts/sandbox/advance', { date: '2099-12-31' });
    ids.batch = (settled.batches as Json[])[0]!.id as string;
    ids.order = ((await created(who, 'GET', `/v1/payouts/payment-batches/${ids.batch}/orders`)).items as Json[])[0]!.id as string;
    ids.subscription = (
      await created(who, 'POST', '/v1/subscriptions', {
        name: 'Own subscription',
        merchantId: ids.merchant,
        customerId: ids.customer,
        items: [{ name: 'Beans', amount: 1000, quantity: 1 }],
        recurrence: { interval: 'monthly', startAt: new Date(Date.now() + 30 * 86_400_000).toISOString() },
        paymentMethod: { type: 'credit', card: { cardId: ids.card } },
      })
    ).id as string;
    ids.cycle = ((await created(who, 'GET', `/v1/subscriptions/${ids.subscription}/cycles`)).items as Json[])[0]!.id as string;
    ids.report = (await created(who, 'POST', '/v1/reports', { type: 'transactions' })).id as string;
    // A charge voided before capture has a cancellation letter.
    const voided = (
      await created(who, 'POST', '/v1/charges', {
        merchantId: ids.merchant,
        amount: 2500,
        capture: false,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: inlineCard() },
      })
    ).id as string;
    await created(who, 'POST', `/v1/charges/${voided}/void`, {});
    ids.receipt = (await created(who, 'POST', '/v1/receipts', { chargeId: voided, type: 'cancellation_letter' })).id as string;
  }

  /** What B's resources look like to B. */
  async function snapshotOfB(): Promise<Json> {
    const get = async (route: string, headers?: Record<string, string>) => {
      const response = await as(b, 'GET', route, undefined, headers);
      return { status: response.status, body: response.body };
    };
    return {
      merchant: await get(`/v1/merchants/${bIds.merchant}`),
      platformFee: await get(`/v1/merchants/${bIds.merchant}/platform-fee`),
      customer: await get(`/v1/customers/${bIds.customer}`),
      customerCards: await get(`/v1/customers/${bIds.customer}/cards`),
      card: await get(`/v1/cards/${bIds.card}`),
      charge: await get(`/v1/charges/${bIds.charge}`),
      flow: await get(`/v1/flows/${bIds.flow}`),
      webhook: await get(`/v1/webhooks/${bIds.webhook}`),
      linkSettings: await get('/v1/settings', { 'x-merchant-id': bIds.merchant! }),
      subscriptionSettings: await get('/v1/subscriptions/settings'),
      seller: await get(`/v1/sellers/${bIds.seller}`),
      review: await get(`/v1/sellers/registration-reviews/${bIds.review}`).then(({ status, body }) => ({ status, body: { ...(body as Json), daysRemaining: null } })),
      session: await get(`/v1/sessions/${bIds.session}`),
      sessionHistory: await get(`/v1/sessions/${bIds.session}/history`),
      plan: await get(`/v1/subacquirer/plans/${bIds.plan}`),
      plans: await get('/v1/subacquirer/plans'),
      batch: await get(`/v1/payouts/payment-batches/${bIds.batch}`),
      order: await get(`/v1/payouts/orders/${bIds.order}`),
      prepayment: await get(`/v1/subacquirer/prepayment/${bIds.prepayment}`),
      balance: await get(`/v1/payouts/balance?sellerId=${bIds.seller}`),
      subscription: await get(`/v1/subscriptions/${bIds.subscription}`),
      report: await get(`/v1/reports/${bIds.report}`).then(({ status, body }) => ({ status, body: { ...(body as Json), status: null, pagesCount: null, rowCount: null, updatedAt: null } })),
      receipt: await get(`/v1/receipts/${bIds.receipt}`),
      cycles: await get(`/v1/subscriptions/${bIds.subscription}/cycles`),
    };
  }

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    platform = await startTestPlatform('e2ecross');
    api = apiClient(platform.gatewayUrl);
    a = await createClient(platform.adminUrl, platform.adminToken, 'Client A', { prepaymentEnabled: true });
    b = await createClient(platform.adminUrl, platform.adminToken, 'Client B', { prepaymentEnabled: true });
    await ownEverything(b, bIds, `${receiverUrl}/b`);
    await ownEverything(a, aIds, `${receiverUrl}/a`);
    bIds.delivery = await eventually(async () => {
      const list = await as<{ items: Array<{ id: string }> }>(b, 'GET', `/v1/webhooks/${bIds.webhook}/deliveries`);
      return list.body.items?.[0]?.id;
    }, "a delivery of B's webhook");
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it("registers an endpoint another client already has (no conflict), and still refuses the client's own duplicate", async () => {
    const endpoint = `${receiverUrl}/shared`;
    expect((await as(b, 'POST', '/v1/webhooks', { event: 'authorized', endpoint })).status).toBe(201);
    expect((await as(a, 'POST', '/v1/webhooks', { event: 'authorized', endpoint })).status).toBe(201);
    const duplicate = await as<{ error: { key: string } }>(a, 'POST', '/v1/webhooks', { event: 'voided', endpoint });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.key).toBe('webhook_endpoint_exists');
  });

  it("a session's public key pays with none of the client's saved cards, customers or tokens, nor with another client's", async () => {
    const session = (await as<{ publicKey: string }>(a, 'GET', `/v1/sessions/${aIds.session}`)).body;
    const buyerKey = { clientId: a.clientId, apiKey: session.publicKey };
    const credit = { paymentType: 'credit', installments: 1 };
    const typed = { sourceType: 'card', card: inlineCard() };
    const bodies: Array<[string, Json]> = [];
    for (const [who, ids] of [['A', aIds], ['B', bIds]] as const) {
      bodies.push(
        [`${who}.card`, { paymentMethod: credit, paymentSource: { sourceType: 'card', cardId: ids.card } }],
        [`${who}.customer`, { customerId: ids.customer, paymentMethod: credit, paymentSource: typed }],
        [`${who}.customer card`, { paymentMethod: credit, paymentSource: { sourceType: 'customer', customerId: ids.customer, cardId: ids.card } }],
      );
    }
    const answers = [];
    for (const [label, body] of bodies) {
      const answer = await api<Json>('POST', `/v1/sessions/${aIds.session}/charge`, { auth: buyerKey, body });
      answers.push([label, answer.status, /Ana Souza|first6|last4/.test(JSON.stringify(answer.body))]);
    }
    expect(answers).toEqual(bodies.map(([label]) => [label, 400, false]));
    // A token pays the session only when made with its key: the client's own is 422, another client's is not found
    // (neither is used up); and the session's key tokenizes for its own client only.
    for (const [label, tokenId, status] of [
      ['A.token', aIds.token, 422],
      ['B.token', bIds.token, 404],
    ] as const) {
      const answer = await api<Json>('POST', `/v1/sessions/${aIds.session}/charge`, { auth: buyerKey, body: { paymentMethod: credit, paymentSource: { sourceType: 'token', tokenId } } });
      expect([label, answer.status]).toEqual([label, status]);
    }
    expect((await api('POST', '/v1/tokens', { auth: { clientId: b.clientId, apiKey: session.publicKey }, body: inlineCard() })).status).toBe(401);
    const after = (await as<{ multiplePayments: Json }>(a, 'GET', `/v1/sessions/${aIds.session}`)).body;
    expect(after.multiplePayments).toMatchObject({ paymentCount: 0, pendingCount: 0 });
  });

  it("does not lend a sandbox client's private webhook target to a live client", async () => {
    const sandbox = await createClient(platform.adminUrl, platform.adminToken, 'Sandbox');
    const created = await apiClient(platform.adminUrl)<Credentials>('POST', '/admin/v1/clients', { body: { name: 'Live', environment: 'live' }, headers: { 'x-admin-token': platform.adminToken } });
    expect(created.status).toBe(201);
    const live = { clientId: created.body.clientId, apiKey: created.body.apiKey };
    const endpoint = `${receiverUrl}/private-${randomUUID()}`;
    expect((await as(sandbox, 'POST', '/v1/webhooks', { event: '*', endpoint })).status).toBe(201);
    const refused = await as<{ error: { details: Array<{ field: string }> } }>(live, 'POST', '/v1/webhooks', { event: '*', endpoint });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d) => d.field)).toEqual(['endpoint']);
  });

  it("answers every client route with B's ids as not found (or refused earlier), changes none of B's resources and stores none of B's ids for A", async () => {
    const before = await snapshotOfB();
    const document = (await api<OpenApi>('GET', '/v1/openapi.json')).body;
    const schemas = document.components.schemas;
    const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(schemas[schema.$ref.split('/').pop()!]!) : schema);

    /** A minimal body from the schema: required fields only, ids of A's where a field names one. */
    const fromSchema = (schema: Schema, name = '', depth = 0): unknown => {
      const s = resolve(schema);
      if (depth > 6) return undefined;
      if (s.oneOf?.[0]) return fromSchema(s.oneOf[0], name, depth + 1);
      if (s.anyOf?.[0]) return fromSchema(s.anyOf[0], name, depth + 1);
      if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => fromSchema(part, name, depth + 1) as Json));
      if (s.enum) return s.enum[0];
      const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
      if (type === 'object' || s.properties) {
        const body: Json = {};
        for (const [key, property] of Object.entries(s.properties ?? {})) {
          const value = (s.required ?? []).includes(key) || /Id$/.test(key) ? fromSchema(property, key, depth + 1) : undefined;
          if (value !== undefined) body[key] = value;
        }
        return body;
      }
      if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => fromSchema(s.items ?? {}, name, depth + 1));
      if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
      if (type === 'boolean') return true;
      if (/Id$/.test(name) && !CLIENT_REFERENCES.has(name)) return aIds[kindOfName(name)[0]!] ?? randomUUID();
      return 'x';
    };

    const freshToken = async () => (await created(a, 'POST', '/v1/tokens', inlineCard())).tokenId as string;
    /** Valid bodies of A's own, per route; a route not here gets a body made from its schema. */
    const samples: Record<string, () => Promise<Json[]>> = {
      'POST /v1/customers/{id}/cards': async () => [{ cardId: aIds.card }],
      'POST /v1/flows': async () => [{ merchantId: aIds.merchant, paymentMethod: 'debit', defaultRoute: [aIds.provider] }],
      'PUT /v1/flows/{id}': async () => [{ paymentMethod: 'credit', defaultRoute: [aIds.provider] }],
      'POST /v1/cards': async () => [{ tokenId: await freshToken(), merchantId: aIds.merchant }],
      'POST /v1/charges/3ds/setup': async () => [
        { sourceType: 'card', cardId: aIds.card },
        { sourceType: 'token', tokenId: await freshToken() },
      ],
      'POST /v1/charges': async () => [
        {
          merchantId: aIds.merchant,
          amount: 1000,
          currency: 'BRL',
          customerId: aIds.customer,
          paymentMethod: { paymentType: 'credit', installments: 1 },
          paymentSource: { sourceType: 'card', cardId: aIds.card },
        },
        {
          merchantId: aIds.merchant,
          amount: 1000,
          currency: 'BRL',
          paymentMethod: { paymentType: 'credit', installments: 1 },
          paymentSource: { sourceType: 'token', tokenId: await freshToken() },
        },
        {
          merchantId: aIds.merchant,
          amount: 1000,
          currency: 'BRL',
          paymentMethod: { paymentType: 'pix', expiresIn: 3600 },
          paymentSource: { sourceType: 'customer', customerId: aIds.customer },
        },
      ],
      'POST /v1/charges/{id}': async () => [{ status: 'authorized' }],
      'PATCH /v1/charges/{id}/antifraud': async () => [{ status: 'approved' }],
      'POST /v1/settings': async () => [{ mainColor: '#202020' }],
      'PATCH /v1/settings': async () => [{ mainColor: '#303030' }],
      'PATCH /v1/webhooks/{id}': async () => [{ status: false }],
      // A valid window, so that B's webhook id is what is refused (404), not the body.
      'POST /v1/webhooks/{id}/recover': async () => [{ since: new Date(Date.now() - 3_600_000).toISOString() }],
      'PATCH /v1/customers/{id}': async () => [{ name: 'Someone Else' }],
      'PATCH /v1/merchants/{id}': async () => [{ name: 'Someone Else' }],
      'PATCH /v1/providers/{id}': async () => [{ name: 'someone-else' }],
      'PUT /v1/merchants/{id}/platform-fee': async () => [{ rules: [] }],
      'PATCH /v1/merchants/{id}/platform-fee/enabled': async () => [{ enabled: true }],
      'POST /v1/charges/{id}/capture': async () => [{}],
      'POST /v1/charges/{id}/void': async () => [{}],
    };

    const ownIdKinds = new Map<string, Kind>(Object.entries(aIds).map(([kind, id]) => [id, kind as Kind]));
    /** Where a body names an id: a field whose name ends in Id, or a value that is one of A's ids (defaultRoute). */
    const idSlots = (value: unknown, path: Array<string | number> = []): Array<{ path: Array<string | number>; kinds: Kind[] }> => {
      if (Array.isArray(value)) return value.flatMap((v, i) => idSlots(v, [...path, i]));
      if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => idSlots(v, [...path, k]));
      if (typeof value !== 'string') return [];
      const own = ownIdKinds.get(value);
      if (own) return [{ path, kinds: [own] }];
      const key = path[path.length - 1];
      return typeof key === 'string' && /Id$/.test(key) && !CLIENT_REFERENCES.has(key) ? [{ path, kinds: kindOfName(key) }] : [];
    };
    const withValue = (body: Json, path: Array<string | number>, value: string): Json => {
      const copy = structuredClone(body);
      let node = copy as Record<string | number, unknown>;
      for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
      node[path[path.length - 1]!] = value;
      return copy;
    };

    interface Attempt {
      label: string;
      method: string;
      route: string;
      body?: Json;
      headers?: Record<string, string>;
      /** A list answered for a foreign filter: 200 allowed, provided no id of B's is in it. */
      listFilter?: boolean;
    }
    const attempts: Attempt[] = [];
    const uncovered: string[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // Only the routes a client calls with its own credentials; admin and public routes are not a client's.
        if (!(operation.security ?? []).some((s) => 'ClientId' in s)) continue;
        const key = `${method.toUpperCase()} ${template}`;
        const parameters = operation.parameters ?? [];
        const pathParams = parameters.filter((p) => p.in === 'path');
        const jsonSchema = operation.requestBody?.content['application/json']?.schema;
        const bodies = samples[key] ? await samples[key]() : jsonSchema ? [fromSchema(jsonSchema) as Json] : [undefined];
        const merchantHeader = parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-merchant-id');
        const ownHeaders = merchantHeader ? { 'x-merchant-id': aIds.merchant! } : undefined;
        const ownPath = (substitute?: { name: string; id: string }) =>
          template.replace(/\{(\w+)\}/g, (_, name: string) => {
            if (substitute?.name === name) return substitute.id;
            return aIds[kindOfName(name, template)[0]!] ?? randomUUID();
          });
        let tried = 0;
        for (const param of pathParams) {
          for (const kind of kindOfName(param.name, template)) {
            const foreign = bIds[kind];
            if (!foreign) continue;
            for (const body of bodies) {
              attempts.push({ label: `${key} ${param.name}=B.${kind}`, method, route: ownPath({ name: param.name, id: foreign }), body, headers: ownHeaders });
              tried += 1;
            }
          }
        }
        if (pathParams.length > 1) {
          // Every path parameter B's at once (B's webhook and B's delivery of it).
          const allForeign = template.replace(/\{(\w+)\}/g, (_, name: string) => bIds[kindOfName(name, template)[0]!] ?? randomUUID());
          for (const body of bodies) attempts.push({ label: `${key} all path ids B's`, method, route: allForeign, body, headers: ownHeaders });
        }
        for (const body of bodies) {
          if (!body) continue;
          for (const slot of idSlots(body)) {
            for (const kind of slot.kinds) {
              const foreign = bIds[kind];
              if (!foreign) continue;
              attempts.push({ label: `${key} body.${slot.path.join('.')}=B.${kind}`, method, route: ownPath(), body: withValue(body, slot.path, foreign), headers: ownHeaders });
              tried += 1;
            }
          }
        }
        if (merchantHeader) {
          for (const body of bodies) {
            attempts.push({ label: `${key} X-Merchant-Id=B.merchant`, method, route: ownPath(), body, headers: { 'x-merchant-id': bIds.merchant! } });
            tried += 1;
          }
        }
        if (method === 'get' && pathParams.length === 0) {
          // Filters that name a resource of a known kind (not orderId, sessionId: the client's own references).
          const filters = parameters.filter((p) => p.in === 'query' && (p.name === 'id' || /Id$/.test(p.name)) && kindOfName(p.name, template).length === 1);
          for (const param of filters) {
            for (const kind of kindOfName(param.name, template)) {
              const foreign = bIds[kind];
              if (!foreign) continue;
              attempts.push({ label: `${key} ?${param.name}=B.${kind}`, method, route: `${template}?${param.name}=${foreign}`, listFilter: true });
              tried += 1;
            }
          }
        }
        if (tried === 0) uncovered.push(key);
      }
    }

    const foreignIds = Object.values(bIds);
    const leaks = (body: unknown) => foreignIds.filter((id) => JSON.stringify(body).includes(id));
    const wrong: string[] = [];
    for (const attempt of attempts) {
      const response = await as(a, attempt.method.toUpperCase(), attempt.route, attempt.body, attempt.headers);
      if (attempt.listFilter) {
        if (response.status >= 500 || (response.status < 300 && leaks(response.body).length > 0)) wrong.push(`${attempt.label}: ${response.status} ${JSON.stringify(response.body)}`);
        continue;
      }
      if (![400, 404, 422].includes(response.status)) wrong.push(`${attempt.label}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    }
    expect(wrong).toEqual([]);
    // Every resource B owns was tried somewhere, and the routes with nothing to substitute are the id-less ones.
    const triedKinds = new Set(attempts.flatMap((t) => [...t.label.matchAll(/B\.(\w+)/g)].map((m) => m[1])));
    expect([...triedKinds].sort()).toEqual([...ALL_KINDS].sort());
    for (const key of uncovered) expect(key).not.toMatch(/\{|Id\b/);
    expect(attempts.length).toBeGreaterThan(45);
    expect(attempts.map((t) => t.label)).toEqual(
      expect.arrayContaining([
        'POST /v1/settings X-Merchant-Id=B.merchant',
        'PATCH /v1/settings X-Merchant-Id=B.merchant',
        'GET /v1/settings X-Merchant-Id=B.merchant',
        'POST /v1/charges body.customerId=B.customer',
        'POST /v1/charges body.paymentSource.customerId=B.customer',
        'POST /v1/charges body.paymentSource.tokenId=B.token',
        'POST /v1/cards body.merchantId=B.merchant',
        'POST /v1/flows body.defaultRoute.0=B.provider',
        'POST /v1/customers/{id}/cards body.cardId=B.card',
      ]),
    );

    expect(await snapshotOfB()).toEqual(before);
    // B's token was never used up by A's attempts: B can still save it as a card.
    expect((await as(b, 'POST', '/v1/cards', { tokenId: bIds.token })).status).toBe(201);

    // Nothing A owns, in any service's database, names one of B's ids.
    const pattern = foreignIds.join('|');
    const found: string[] = [];
    const checked: string[] = [];
    for (const service of SERVICES) {
      const db = new Client({ connectionString: platform.databaseUrl(service.database) });
      await db.connect();
      try {
        const { rows: tables } = await db.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'client_id'`,
        );
        for (const { table_name: table } of tables) {
          checked.push(`${service.database}.${table}`);
          const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" t WHERE t.client_id::text = $1 AND t::text ~ $2`, [a.clientId, pattern]);
          if (rows[0]!.n > 0) found.push(`${service.database}.${table}: ${rows[0]!.n}`);
        }
        const { rows: events } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE payload->>'clientId' = $1 AND payload::text ~ $2`, [
          a.clientId,
          pattern,
        ]);
        if (events[0]!.n > 0) found.push(`${service.database}.outbox: ${events[0]!.n}`);
      } finally {
        await db.end();
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['payments.charges', 'payments.cards', 'payments.flows', 'settings.link_settings', 'customers.customers', 'webhooks.webhooks']));
    expect(found).toEqual([]);
  }, 60_000);
});
