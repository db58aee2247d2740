import request from 'supertest';
import type { RouteDefinition } from '../src/http/route';
import { buildOpenApiDocument, OPERATION_ID } from '../src/openapi/document';
import { apiTag } from '../src/openapi/tags';
import { generatorDocument, readOnlyRoutes } from '../src/openapi/write';
import { buildGateway, PUBLIC_URL } from './helpers';

interface Operation {
  description?: string;
  'x-sandbox-only'?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}
type Paths = Record<string, Record<string, Operation>>;

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** The routes express really serves, read from its router. */
function expressRoutes(app: ReturnType<typeof buildGateway>['app']): Array<{ method: string; path: string }> {
  const stack = (app as unknown as { router: { stack: ExpressLayer[] } }).router.stack;
  return stack.flatMap((layer) =>
    layer.route ? Object.keys(layer.route.methods).map((method) => ({ method, path: layer.route!.path.replace(/:(\w+)/g, '{$1}') })) : [],
  );
}

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the security schemes and the shared error envelope, without auth', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(res.body.servers).toEqual([{ url: PUBLIC_URL, description: expect.stringContaining('PUBLIC_URL') }]);
    expect(res.body.info.license).toEqual({ name: expect.any(String), identifier: expect.stringMatching(/^[A-Za-z0-9.-]+$/) });
    expect(res.body.info.contact).toEqual({ name: expect.any(String) });
    expect(res.body.components.securitySchemes).toEqual({
      ClientId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Client-Id' }),
      ApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
    });
    const admin = await request(gw.admin).get('/admin/v1/openapi.json');
    expect(admin.body.components.securitySchemes).toEqual({
      AdminToken: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Admin-Token' }),
    });
    const envelope = res.body.components.schemas.Error;
    expect(envelope.required).toEqual(['error']);
    expect(Object.keys(envelope.properties.error.properties).sort()).toEqual(
      ['businessCode', 'code', 'declinedCode', 'declined_code', 'details', 'key', 'message', 'type'].sort(),
    );
    expect(gw.settingsCalls).toHaveLength(0);
  });

  it('documents every route express serves, on the public listener or the admin one, and nothing else', async () => {
    const gw = buildGateway();
    // Each listener's document lists what that listener serves: the public one, and the admin one its own.
    const paths = {
      ...((await request(gw.app).get('/v1/openapi.json')).body.paths as Paths),
      ...((await request(gw.admin).get('/admin/v1/openapi.json')).body.paths as Paths),
    };
    const served = [...expressRoutes(gw.app), ...expressRoutes(gw.admin)];
    expect(served.length).toBeGreaterThanOrEqual(43);
    for (const { method, path } of served) {
      expect({ method, path, documented: Boolean(paths[path]?.[method]) }).toEqual({ method, path, documented: true });
    }
    const documented = Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(served.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('declares every path parameter, the security of each kind of route, and the envelope on error statuses', async () => {
    const gw = buildGateway();
    const paths = {
      ...((await request(gw.app).get('/v1/openapi.json')).body.paths as Paths),
      ...((await request(gw.admin).get('/admin/v1/openapi.json')).body.paths as Paths),
    };
    for (const [path, ops] of Object.entries(paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(ops)) {
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect(declared.sort()).toEqual(templated.sort());
        for (const [status, response] of Object.entries(op.responses)) {
          // /health answers 503 with its own shape, by design.
          if (Number(status) >= 400 && !(path === '/health' && status === '503')) expect(response.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/Error');
        }
      }
    }
    expect(paths['/v1/customers']!.get!.security).toEqual([{ ClientId: [], ApiKey: [] }]);
    expect(paths['/admin/v1/clients']!.post!.security).toEqual([{ AdminToken: [] }]);
    expect(paths['/health']!.get!.security).toEqual([]);
    expect(paths['/v1/settings/logos/{logoId}']!.get!.security).toEqual([]);
    expect(Object.keys(paths['/v1/settings']!.patch!.requestBody!.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(paths['/v1/customers']!.post!.parameters).toContainEqual(expect.objectContaining({ name: 'x-idempotency-key', in: 'header' }));
    expect(paths['/v1/customers']!.get!.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'sort', 'order', 'id', 'document.type', 'document.number', 'email']),
    );
    expect(paths['/health']!.get!.responses['503']!.content!['application/json']!.schema.$ref).toBe('#/components/schemas/Health');
  });

  it('documents the payments routes: sandbox-only flags, 402 on charge creation, the list filters of charges', async () => {
    const gw = buildGateway();
    const paths = (await request(gw.app).get('/v1/openapi.json')).body.paths as Paths;
    const sandboxOnly = Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op['x-sandbox-only'] === true)
        .map(([method]) => `${method} ${path}`),
    );
    expect(sandboxOnly.sort()).toEqual([
      'patch /v1/charges/{id}/antifraud',
      'post /v1/charges/{id}',
      'post /v1/payouts/sandbox/advance',
      'post /v1/sellers/registration-reviews',
      'post /v1/sellers/registration-reviews/{processId}/cancel',
      'post /v1/sellers/registration-reviews/{processId}/requested-fields',
      'post /v1/sellers/{id}/registration-reviews',
      'post /v1/subscriptions/{id}/sandbox/advance',
    ]);
    for (const op of [paths['/v1/charges/{id}']!.post!, paths['/v1/charges/{id}/antifraud']!.patch!]) {
      expect(op.description).toMatch(/^Sandbox only|\n\nSandbox only/);
      expect(op.responses['404']).toBeDefined();
    }
    expect(paths['/v1/charges/{id}']!.get!.description ?? '').not.toMatch(/Sandbox only/);
    const create = paths['/v1/charges']!.post!;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '402', '422']));
    expect(create.responses['201']!.content!['application/json']!.schema.$ref).toBe('#/components/schemas/Charge');
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: 'x-idempotency-key', in: 'header' }));
    expect(paths['/v1/charges']!.get!.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'sort', 'merchantId', 'id', 'sessionId', 'status', 'paymentType', 'orderId', 'created', 'created.gt', 'created.lt', 'providerType']),
    );
    expect(paths['/v1/charges/3ds/setup']!.post!.responses['201']!.content!['application/json']!.schema.$ref).toBe('#/components/schemas/ThreeDSSetup');
    expect(paths['/v1/merchants/{id}']!.delete!.responses['204']).toBeDefined();
  });

  it('documents the payment method and source variants as discriminated unions, and no credential secret in answers', async () => {
    const gw = buildGateway();
    const schemas = (await request(gw.app).get('/v1/openapi.json')).body.components.schemas as Record<string, Record<string, unknown>>;
    expect(schemas.PaymentMethodInput!.discriminator).toEqual(expect.objectContaining({ propertyName: 'paymentType' }));
    expect(Object.keys((schemas.PaymentMethodInput!.discriminator as { mapping: object }).mapping).sort()).toEqual(['boleto', 'credit', 'debit', 'pix', 'voucher']);
    expect(schemas.PaymentSourceInput!.discriminator).toEqual(expect.objectContaining({ propertyName: 'sourceType' }));
    expect(Object.keys((schemas.PaymentSourceInput!.discriminator as { mapping: object }).mapping).sort()).toEqual(['card', 'customer', 'token', 'wallet']);
    expect(schemas.ReplacePlatformFeeRequest!.description).toMatch(/bare array/);
    const provider = schemas.Provider as { properties: { credentials: { properties: object; additionalProperties?: unknown } } };
    expect(Object.keys(provider.properties.credentials.properties)).toEqual(['type']);
    expect(Object.keys((schemas.Card as { properties: object }).properties)).not.toEqual(expect.arrayContaining(['cardNumber']));
  });
});

describe('GET /docs', () => {
  it('serves the docs page, pointed at /v1/openapi.json, with every asset from the gateway itself', async () => {
    const gw = buildGateway();
    const page = await request(gw.app).get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset.startsWith('/docs/')).toBe(true);
      const res = await request(gw.app).get(asset);
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
      expect(Number(res.headers['content-length'] ?? (res.text ?? '').length)).toBeGreaterThan(0);
    }
    const init = await request(gw.app).get('/docs/init.js');
    expect(init.headers['content-type']).toMatch(/javascript/);
    expect(init.text).toContain("url: '/v1/openapi.json'");
    const bundle = await request(gw.app).get('/docs/swagger-ui-bundle.js');
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(bundle.text).toContain('SwaggerUIBundle');
    expect((await request(gw.app).get('/docs/')).status).toBe(200);
  });

  it('does not serve other files of the package', async () => {
    const gw = buildGateway();
    for (const path of ['/docs/index.html', '/docs/package.json', '/docs/../package.json']) {
      const res = await request(gw.app).get(path);
      expect(res.status).toBe(404);
      expect(res.body.error.key).toBe('route_not_found');
    }
  });
});

describe('the document for client generators', () => {
  const served = async () => (await request(buildGateway().app).get('/v1/openapi.json')).body as { paths: Paths; tags: Array<{ name: string; description?: string }> };
  const operationsOf = (paths: Paths) =>
    Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ where: `${method} ${path}`, op: op as Operation & { operationId?: string; tags?: string[] } })),
    );

  it('names every operation with a unique camelCase operationId', async () => {
    const operations = operationsOf((await served()).paths);
    const ids = operations.map(({ op }) => op.operationId);
    for (const { where, op } of operations) expect({ where, operationId: op.operationId }).toEqual({ where, operationId: expect.stringMatching(OPERATION_ID) });
    expect(new Set(ids).size).toBe(ids.length);
    const byId = Object.fromEntries(operations.map(({ where, op }) => [op.operationId, where]));
    expect(byId).toMatchObject({
      createCustomer: 'post /v1/customers',
      listCustomers: 'get /v1/customers',
      createCardToken: 'post /v1/tokens',
      createCharge: 'post /v1/charges',
      captureCharge: 'post /v1/charges/{id}/capture',
      voidCharge: 'post /v1/charges/{id}/void',
      createSession: 'post /v1/sessions',
      chargeSession: 'post /v1/sessions/{id}/charge',
      createWebhook: 'post /v1/webhooks',
      cancelSubscription: 'patch /v1/subscriptions/{id}/cancel',
      cancelSubscriptionViaPost: 'post /v1/subscriptions/{id}/cancel',
    });
  });

  it('tags every operation with tags declared at the top level, each with a description, and declares no unused tag', async () => {
    const document = await served();
    const declared = document.tags.map((t) => t.name);
    expect(new Set(declared).size).toBe(declared.length);
    for (const tag of document.tags) expect({ tag: tag.name, description: (tag.description ?? '').length > 10 }).toEqual({ tag: tag.name, description: true });
    const used = new Set<string>();
    for (const { where, op } of operationsOf(document.paths)) {
      expect({ where, tagged: (op.tags ?? []).length > 0 }).toEqual({ where, tagged: true });
      for (const tag of op.tags ?? []) {
        expect({ where, tag, declared: declared.includes(tag) }).toEqual({ where, tag, declared: true });
        used.add(tag);
      }
    }
    expect([...used].sort()).toEqual([...declared].sort());
  });

  it('shows an envelope example on every error response, with the status as its code', async () => {
    for (const { where, op } of operationsOf((await served()).paths)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || (where === 'get /health' && status === '503')) continue;
        const example = (response.content?.['application/json'] as { example?: { error: { code: number } } } | undefined)?.example;
        expect({ where, status, code: example?.error.code }).toEqual({ where, status, code: Number(status) });
      }
    }
  });

  it('lists 409 (a request with the same X-Idempotency-Key in flight) and 422 (the key reused) on the routes whose service keeps the key', async () => {
    const paths = (await served()).paths;
    const byId = new Map(operationsOf(paths).map(({ op }) => [op.operationId, op]));
    const keeping = ['createCustomer', 'createLinkSettings', 'createMerchant', 'createFlow', 'createCardToken', 'createCard', 'createThreeDSSetup', 'createCharge', 'chargeSession', 'createSession', 'createSeller']
      .concat(['openSandboxRegistrationReviewByDocument', 'openSandboxRegistrationReview', 'sendSandboxRequestedFields', 'submitRegistrationReview'])
      .concat(['createPlan', 'simulatePrepayment', 'createSubscription', 'createReport'])
      .concat(['captureCharge', 'voidCharge', 'setSandboxChargeStatus', 'createWebhook', 'retryWebhookDelivery', 'rotateWebhookSecret', 'recoverWebhookEvents']);
    for (const operationId of keeping) {
      const statuses = Object.keys(byId.get(operationId)?.responses ?? {});
      expect({ operationId, conflict: statuses.includes('409'), reused: statuses.includes('422') }).toEqual({ operationId, conflict: true, reused: true });
    }
  });

  it('refuses a route table with an operationId that is not camelCase or is taken', () => {
    const route = (operationId: string, path: string): RouteDefinition => ({
      method: 'get',
      path,
      operationId,
      summary: 'A route',
      tags: [apiTag('Things', 'Things of the test.')],
      resource: 'public',
      response: { status: 204, description: 'Nothing' },
      handler: async () => undefined,
    });
    expect(() => buildOpenApiDocument([route('getThing', '/a'), route('getThing', '/b')])).toThrow('operationId "getThing" is already the one of GET /a');
    expect(() => buildOpenApiDocument([route('get-thing', '/a')])).toThrow('is not camelCase');
    expect(() => buildOpenApiDocument([route('GetThing', '/a')])).toThrow('is not camelCase');
    expect(() => buildOpenApiDocument([route('getThing', '/a'), { ...route('getOther', '/b'), tags: [apiTag('Things', 'Another text.')] }])).toThrow(
      'tag "Things" is declared with two descriptions',
    );
  });

  it('has request and response examples for the main operations, each one valid for the schema of its route', () => {
    const routes = readOnlyRoutes();
    const withExamples = routes.filter((route) => route.examples);
    for (const route of withExamples) {
      for (const [name, example] of Object.entries(route.examples?.request ?? {})) {
        const parsed = route.body!.safeParse(example.value);
        expect({ operation: route.operationId, name, issues: parsed.error?.issues ?? [] }).toEqual({ operation: route.operationId, name, issues: [] });
      }
      for (const [name, example] of Object.entries(route.examples?.response ?? {})) {
        const schema = 'schema' in route.response ? route.response.schema : undefined;
        const parsed = schema!.safeParse(example.value);
        expect({ operation: route.operationId, name, issues: parsed.error?.issues ?? [] }).toEqual({ operation: route.operationId, name, issues: [] });
      }
    }
    const examplesOf = (operationId: string) => {
      const route = routes.find((r) => r.operationId === operationId)!;
      return { operationId, request: Object.keys(route.examples?.request ?? {}).length > 0, response: Object.keys(route.examples?.response ?? {}).length > 0 };
    };
    for (const operationId of ['createCustomer', 'updateCustomer', 'createCardToken', 'createCard', 'createCharge', 'captureCharge', 'voidCharge', 'createMerchant', 'createSession', 'chargeSession', 'createWebhook', 'createPublicKey', 'createClientAccount']) {
      expect(examplesOf(operationId)).toEqual({ operationId, request: true, response: true });
    }
  });

  it('shows the SANDBOX test cards in the examples of tokens and charges, and the examples in the document', async () => {
    const paths = (await served()).paths as unknown as Record<string, Record<string, { requestBody: { content: Record<string, { examples?: Record<string, { value: unknown }> }> } }>>;
    const tokens = JSON.stringify(paths['/v1/tokens']!.post!.requestBody.content['application/json']!.examples);
    expect(tokens).toContain('"cardNumber":"4000000000000010"');
    expect(tokens).toContain('"cardNumber":"4000000000000002"');
    const charges = paths['/v1/charges']!.post!.requestBody.content['application/json']!.examples!;
    expect(Object.keys(charges).sort()).toEqual(['declinedCard', 'pix', 'sandboxCard', 'savedCard']);
    const responses = (paths['/v1/charges']!.post! as unknown as Operation).responses['201']!.content!['application/json'] as unknown as { examples: Record<string, { value: { status: string } }> };
    expect(Object.values(responses.examples).map((e) => e.value.status).sort()).toEqual(['failed', 'pre_authorized']);
  });

  it('is the served document with a templated server, since no one deployment owns it, and the admin paths beside', async () => {
    const generated = generatorDocument() as unknown as {
      servers: Array<{ url: string; variables?: Record<string, { default: string }> }>;
      info: unknown;
      paths: Paths;
      tags: Array<{ name: string }>;
    };
    const document = (await request(buildGateway().app).get('/v1/openapi.json')).body;
    const publicPaths = Object.fromEntries(Object.entries(generated.paths).filter(([path]) => !path.startsWith('/admin')));
    // The served document is the generators' one without the admin listener's paths (and their schemas and tag).
    expect(publicPaths).toEqual(document.paths);
    expect(generated.info).toEqual(document.info);
    expect(generated).toMatchObject({ components: document.components, tags: expect.arrayContaining(document.tags) });
    expect(generated.tags.map((tag) => tag.name).filter((name) => !document.tags.some((tag: { name: string }) => tag.name === name))).toEqual(['Admin']);
    expect(generated.servers).toHaveLength(1);
    const server = generated.servers[0]!;
    const filled = server.url.replace(/\{(\w+)\}/g, (_m, name: string) => server.variables?.[name]?.default ?? '?');
    expect(new URL(filled).origin).toBe('https://localhost:8080');
  });
});
