import request from 'supertest';
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
    expect(res.body.servers).toEqual([{ url: PUBLIC_URL }]);
    expect(res.body.components.securitySchemes).toEqual({
      ClientId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Client-Id' }),
      ApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
      AdminToken: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Admin-Token' }),
    });
    const envelope = res.body.components.schemas.Error;
    expect(envelope.required).toEqual(['error']);
    expect(Object.keys(envelope.properties.error.properties).sort()).toEqual(
      ['businessCode', 'code', 'declinedCode', 'declined_code', 'details', 'key', 'message', 'type'].sort(),
    );
    expect(gw.settingsCalls).toHaveLength(0);
  });

  it('documents every route express serves, and nothing else', async () => {
    const gw = buildGateway();
    const paths = (await request(gw.app).get('/v1/openapi.json')).body.paths as Paths;
    const served = expressRoutes(gw.app);
    expect(served.length).toBeGreaterThanOrEqual(43);
    for (const { method, path } of served) {
      expect({ method, path, documented: Boolean(paths[path]?.[method]) }).toEqual({ method, path, documented: true });
    }
    const documented = Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(served.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('declares every path parameter, the security of each kind of route, and the envelope on error statuses', async () => {
    const gw = buildGateway();
    const paths = (await request(gw.app).get('/v1/openapi.json')).body.paths as Paths;
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
