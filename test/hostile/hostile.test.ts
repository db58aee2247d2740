import { randomUUID } from 'node:crypto';
import { cardNumberEnding } from '@platform/testkit';
import fc from 'fast-check';
import { Client } from 'pg';
import { SERVICES } from '@platform/devstack';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from '../e2e/platform';
import { ACTIVE_SVG, SVG_BYPASSES } from '../../services/settings/test/support/svgVectors';
import { rawRequest } from './rawHttp';
import { Schemas, setAt, type Field, type FieldPath, type Json, type JsonSchema, type OpenApi, type Operation } from './schema';
import {
  ARRAYS,
  IDEMPOTENCY_KEYS,
  NUMBERS,
  OBJECTS,
  PATH_SEGMENTS,
  QUERY_VALUES,
  RAW_BODIES,
  STRINGS,
  WRONG_TYPES,
  nested,
  serialize,
} from './values';

/**
 * Every route of the OpenAPI document, every field of it, with hostile values, against the real platform (services
 * and gateway as processes, on PostgreSQL): no answer may be a 5xx, every answer is the error envelope or the
 * route's documented success, and a refused request writes no row in any table of any service.
 */

const SEED = 20_261_122;
/**
 * Random combinations of several hostile fields drawn per route, on top of every field with every listed value.
 * HOSTILE_RANDOM_CASES raises it for a long run (HOSTILE_RANDOM_CASES=400 npx jest test/hostile).
 */
const RANDOM_CASES = Number(process.env.HOSTILE_RANDOM_CASES ?? 50);
/** Requests a batch sends at once, and the batch after which the row counts are compared. */
const CONCURRENCY = 16;
const BATCH = 48;
/** Statuses that mean "refused": such a request must not have written anything. */
const REFUSED = new Set([400, 401, 403, 404, 405, 408, 409, 413, 415, 429, 431]);
/**
 * Written in the background, not by the request at hand: the delivery worker on its own schedule (retries of earlier
 * events), event consumers' inbox as events arrive, and the payouts ledger, which charge and seller events feed (in a
 * full run, other suites' platforms share the NATS server, so their events arrive here too).
 */
const BACKGROUND_TABLES = new Set([
  'deliveries',
  'delivery_attempts',
  'processed_events',
  ...['ledger_charges', 'ledger_entries', 'postings', 'receivables', 'receiver_debits', 'sellers'].map((t) => `payouts-and-prepayment.${t}`),
]);
/**
 * Tables partly written in the background, counted without those rows: a client's default plan is made with its
 * first use, which may be an event's.
 */
const COUNTED_WHERE: Record<string, string> = { plans: 'NOT is_default' };
/** What the provider notification route takes at most (the gateway's RAW_BODY_MAX_BYTES, 64 KiB). */
const RAW_BODY_LIMIT = 64 * 1024;
const ERROR_TYPES = new Set(['api_error', 'bad_request', 'invalid_request_error', 'card_declined']);

interface Case {
  op: string;
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

interface Outcome {
  sent: number;
  failures: string[];
  byOp: Map<string, number>;
  statuses: Map<number, number>;
}

const expiration = `12/${new Date().getUTCFullYear() + 5}`;

function envelopeProblem(status: number, contentType: string, text: string): string | undefined {
  if (!contentType.includes('application/json')) return `content-type ${contentType || '(none)'}`;
  let body: { error?: { type?: unknown; code?: unknown; message?: unknown; details?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return 'body is not JSON';
  }
  const error = body.error;
  if (!error || typeof error !== 'object') return 'no error object';
  if (!ERROR_TYPES.has(error.type as string)) return `type ${String(error.type)}`;
  if (error.code !== status) return `code ${String(error.code)} for status ${status}`;
  if (typeof error.message !== 'string' || error.message === '') return 'no message';
  if (error.details !== undefined && !Array.isArray(error.details)) return 'details is not an array';
  return undefined;
}

describe('hostile input against every route of the OpenAPI document', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let doc: OpenApi;
  let schemas: Schemas;
  let port: number;
  const ids: Record<string, string> = {};
  const databases: Array<{ service: string; db: Client; tables: string[] }> = [];

  const authHeaders = () => ({ 'x-client-id': client.clientId, 'x-api-key': client.apiKey });

  async function create(route: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await api('POST', route, { auth: client, body });
    if (response.status !== 201) throw new Error(`POST ${route}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  beforeAll(async () => {
    // Rate limits off: every generated request must reach validation and the services, not a 429 (their own suite
    // is gateway/test/rateLimit.test.ts).
    platform = await startTestPlatform('hostile', { AUTH_CACHE_TTL_MS: '60000', RATE_LIMIT_ENABLED: 'false' });
    port = Number(new URL(platform.gatewayUrl).port);
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Hostile Store');
    ids.spareClientId = (await createClient(platform.adminUrl, platform.adminToken, 'Spare')).clientId;
    const merchant = await create('/v1/merchants', {
      mcc: '5999',
      name: 'Loja Hostil',
      providers: [{ name: 'sandbox-a', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret' } }],
    });
    ids.merchantId = merchant.id as string;
    ids.providerId = (merchant.providers as Array<{ id: string }>)[0]!.id;
    ids.customerId = (await create('/v1/customers', {
      name: 'Ana Hostil',
      email: 'ana.hostile@example.com',
      phoneNumber: '11999990000',
      document: { type: 'cpf', number: '52998224725', country: 'BR' },
    })).id as string;
    const token = await create('/v1/tokens', { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(0), cardCvv: '123', cardExpirationDate: expiration });
    ids.cardId = (await create('/v1/cards', { tokenId: token.tokenId })).id as string;
    const linked = await api('POST', `/v1/customers/${ids.customerId}/cards`, { auth: client, body: { cardId: ids.cardId } });
    expect(linked.status).toBe(204);
    ids.chargeId = (await create('/v1/charges', {
      merchantId: ids.merchantId,
      amount: 1_000,
      currency: 'BRL',
      paymentMethod: { paymentType: 'credit', installments: 1 },
      paymentSource: { sourceType: 'card', cardId: ids.cardId },
    })).id as string;
    // Inactive: its events create no deliveries.
    ids.webhookId = (await create('/v1/webhooks', { event: 'authorized', endpoint: 'https://hooks.example.com/hostile', status: false })).id as string;
    ids.flowId = (await create('/v1/flows', { merchantId: ids.merchantId, paymentMethod: 'credit', defaultRoute: [ids.providerId] })).id as string;
    // A provider entry whose connector reads notifications (Cielo's Notification Post), so that the public
    // notification route's hostile bodies reach a connector; no charge goes through it, so Cielo is never called.
    const notified = await create('/v1/merchants', {
      mcc: '5999',
      name: 'Loja Notificada',
      providers: [{ name: 'cielo', priority: 1, credentials: { type: 'CIELO', merchantId: randomUUID(), merchantKey: 'hostile-merchant-key-0000000000000000000' } }],
    });
    ids.notifiedProviderId = (notified.providers as Array<{ id: string }>)[0]!.id;

    doc = (await api<OpenApi>('GET', '/v1/openapi.json')).body;
    schemas = new Schemas(doc);
    for (const service of SERVICES) {
      const db = new Client({ connectionString: platform.databaseUrl(service.database) });
      await db.connect();
      const { rows } = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
      );
      const background = (t: string) => BACKGROUND_TABLES.has(t) || BACKGROUND_TABLES.has(`${service.name}.${t}`);
      databases.push({ service: service.name, db, tables: rows.map((r) => r.table_name).filter((t) => !background(t)) });
    }
  }, 180_000);

  afterAll(async () => {
    for (const { db } of databases) await db.end().catch(() => undefined);
    await platform?.stop();
  });

  /** Row counts of every table of every service database, as one comparable string per table. */
  async function snapshot(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const { service, db, tables } of databases) {
      if (tables.length === 0) continue;
      const sql = tables.map((t) => `SELECT '${t}' AS t, count(*)::int AS n FROM "${t}"${COUNTED_WHERE[t] ? ` WHERE ${COUNTED_WHERE[t]}` : ''}`).join(' UNION ALL ');
      const { rows } = await db.query<{ t: string; n: number }>(sql);
      for (const row of rows) counts.set(`${service}.${row.t}`, row.n);
    }
    return counts;
  }

  /**
   * Jobs of any service due now or within two seconds, or running: work an accepted request left behind (a
   * subscription's first cycle, a delivery) that would write after the counts looked still.
   */
  async function jobsPending(): Promise<number> {
    let pending = 0;
    for (const { db } of databases) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE attempts < max_attempts AND (locked_at IS NOT NULL OR run_at < now() + interval '2 seconds')`,
      );
      pending += rows[0]?.n ?? 0;
    }
    return pending;
  }

  /** Waits until the counts stop moving (event consumers and relays catch up after a write) and no job is about to run. */
  async function settled(): Promise<Map<string, number>> {
    let previous = await snapshot();
    for (let i = 0; i < 80; i++) {
      await new Promise((r) => setTimeout(r, 150));
      const current = await snapshot();
      if (diff(previous, current).length === 0 && (await jobsPending()) === 0) return current;
      previous = current;
    }
    return previous;
  }

  function diff(before: Map<string, number>, after: Map<string, number>): string[] {
    const changes: string[] = [];
    for (const [table, n] of after) if (before.get(table) !== n) changes.push(`${table} ${before.get(table) ?? 0} -> ${n}`);
    return changes;
  }

  /** A known-good value for a field, by its name: ids of the records made above, valid documents and cards. */
  function override(path: FieldPath): Json | undefined {
    const name = path.at(-1);
    const parent = path.at(-2);
    if (typeof name === 'number' && (parent === 'route' || parent === 'defaultRoute')) return ids.providerId!;
    switch (name) {
      case 'merchantId':
      case 'customerId':
      case 'cardId':
      case 'chargeId':
      case 'providerId':
      case 'webhookId':
      case 'flowId':
        return ids[name] ?? null;
      case 'tokenId':
      case 'sellerId':
        return randomUUID();
      case 'number':
        return parent === 'document' ? '52998224725' : undefined;
      case 'phoneNumber':
        return '11999990000';
      case 'currency':
        return 'BRL';
      case 'cardNumber':
        return '4111111111111110';
      case 'cardExpirationDate':
        return expiration;
      case 'cardCvv':
        return '123';
      case 'mcc':
        return '5999';
      case 'endpoint':
        return 'https://hooks.example.com/hostile';
      default:
        return undefined;
    }
  }

  function pathParamValue(path: string, name: string): string {
    if (name === 'clientId') return ids.spareClientId!;
    const before = path.split(`{${name}}`)[0]!.split('/').filter(Boolean).at(-1);
    const byResource: Record<string, string | undefined> = {
      customers: ids.customerId,
      cards: ids.cardId,
      charges: ids.chargeId,
      merchants: ids.merchantId,
      providers: ids.providerId,
      webhooks: ids.webhookId,
      flows: ids.flowId,
    };
    if (name === 'cardId') return ids.cardId!;
    if (name === 'providerId') return ids.notifiedProviderId!;
    return (name === 'id' && before ? byResource[before] : undefined) ?? randomUUID();
  }

  function valuesFor(field: Field): unknown[] {
    const types = schemas.typesOf(field.schema);
    const values: unknown[] = [...WRONG_TYPES];
    if (types.includes('string')) values.push(...STRINGS);
    if (types.includes('integer') || types.includes('number')) values.push(...NUMBERS);
    if (types.includes('array')) values.push(...ARRAYS);
    const freeForm = types.includes('object') && !field.schema.properties;
    if (freeForm || types.length === 0) values.push(...OBJECTS);
    else if (types.includes('object')) values.push(nested(33), nested(9));
    return values;
  }

  /** Every case of one operation, deterministic. */
  function casesOf(path: string, method: string, operation: Operation): Case[] {
    const op = `${method.toUpperCase()} ${path}`;
    const params = operation.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const query = params.filter((p) => p.in === 'query');
    const json = operation.requestBody?.content['application/json']?.schema;
    const multipart = operation.requestBody?.content['multipart/form-data']?.schema;
    const raw = operation.requestBody?.content['*/*'] !== undefined;
    const admin = operation.security?.some((s) => 'AdminToken' in s) ?? false;
    const isPublic = operation.security !== undefined && operation.security.length === 0;
    const baseHeaders: Record<string, string> = admin ? { 'x-admin-token': platform.adminToken } : isPublic ? {} : authHeaders();
    const validPath = pathParams.reduce((p, param) => p.replace(`{${param.name}}`, pathParamValue(path, param.name)), path);
    const baseBody = json ? schemas.sample(json, [], override) : undefined;
    const cases: Case[] = [];
    const add = (label: string, parts: { url?: string; headers?: Record<string, string>; body?: string | Buffer; contentType?: string }) => {
      const headers = { ...baseHeaders, ...parts.headers };
      let body = parts.body;
      if (body === undefined && baseBody !== undefined && method !== 'get' && method !== 'delete') body = serialize(baseBody);
      if (body !== undefined) headers['content-type'] = parts.contentType ?? headers['content-type'] ?? 'application/json';
      cases.push({ op, label, method: method.toUpperCase(), url: parts.url ?? validPath, headers, body });
    };

    if (method !== 'delete') add('base', {});
    for (const param of pathParams) {
      for (const segment of PATH_SEGMENTS) {
        const url = pathParams.reduce((p, other) => p.replace(`{${other.name}}`, other === param ? segment : pathParamValue(path, other.name)), path);
        add(`path ${param.name}=${segment.slice(0, 20)}`, { url });
      }
    }
    for (const param of query) {
      for (const value of QUERY_VALUES) add(`query ${param.name}=${value.slice(0, 20)}`, { url: `${validPath}?${param.name}=${value}` });
      add(`query ${param.name} twice`, { url: `${validPath}?${param.name}=1&${param.name}=2` });
    }
    if (method === 'post') for (const key of IDEMPOTENCY_KEYS) add(`idempotency ${JSON.stringify(key.slice(0, 12))}`, { headers: { 'x-idempotency-key': key } });
    add('odd request id', { headers: { 'x-request-id': '\u00e9'.repeat(300) } });
    // Query parameters no route declares, and odd keys: ignored or refused, never a failure.
    for (const value of QUERY_VALUES.slice(0, 8)) add(`stray query ${value.slice(0, 20)}`, { url: `${validPath}?stray=${value}` });
    for (const key of ['%ff', '%00', '__proto__', 'constructor', '%5B%5D']) add(`stray query key ${key}`, { url: `${validPath}?${key}=1` });
    add('odd accept', { headers: { accept: 'application/xml;q=\u00e9, */*' } });
    if (!admin && !isPublic) {
      add('client id not a uuid', { headers: { 'x-client-id': 'not-a-uuid' } });
      add('client id latin1', { headers: { 'x-client-id': '\u00e9\u00e9' } });
      add('client id long', { headers: { 'x-client-id': 'c'.repeat(5_000) } });
      add('api key latin1', { headers: { 'x-api-key': 'sk_\u00ff' } });
    }
    if (json) {
      for (const field of schemas.fields(json, override)) {
        let prepared: Json = structuredClone(baseBody) as Json;
        for (const [at, value] of field.prelude) prepared = setAt(prepared, at, value);
        for (const value of valuesFor(field)) {
          add(`body ${field.path.join('.')} = ${serialize(value).slice(0, 30)}`, { body: serialize(setAt(prepared, field.path, value as Json)) });
        }
      }
      for (const raw of RAW_BODIES) add(`raw body ${raw.contentType} ${raw.body.slice(0, 20).toString()}`, { body: raw.body, contentType: raw.contentType });
      add('unknown fields', { body: serialize({ ...(baseBody as object), ['\u0000']: 1, extra: nested(50) }) });
    } else if (raw) {
      // Bytes of any media type (a provider's notification): odd bodies, the largest taken and one byte past it,
      // and a Cielo Notification Post with hostile values in each of its fields.
      for (const rawBody of RAW_BODIES) add(`raw body ${rawBody.contentType} ${rawBody.body.slice(0, 20).toString()}`, { body: rawBody.body, contentType: rawBody.contentType });
      add('raw body empty', { body: '', contentType: 'application/octet-stream' });
      add('raw body binary', { body: Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x7b]), contentType: 'application/octet-stream' });
      add('raw body at the limit', { body: `{"PaymentId":"${randomUUID()}","ChangeType":1,"pad":"${'p'.repeat(RAW_BODY_LIMIT - 90)}"}`.slice(0, RAW_BODY_LIMIT), contentType: 'application/json' });
      add('raw body past the limit', { body: 'x'.repeat(RAW_BODY_LIMIT + 1), contentType: 'application/json' });
      const post = { PaymentId: randomUUID(), ChangeType: 1 };
      add('raw body Notification Post', { body: serialize(post) });
      for (const [field, values] of [
        ['PaymentId', [...WRONG_TYPES, ...STRINGS, randomUUID().toUpperCase()]],
        ['ChangeType', [...WRONG_TYPES, ...NUMBERS, '1', 6, 99]],
        ['RecurrentPaymentId', [...WRONG_TYPES, ...STRINGS]],
      ] as const) {
        for (const value of values) add(`raw body ${field} = ${serialize(value).slice(0, 30)}`, { body: serialize({ ...post, [field]: value }) });
      }
      for (const value of OBJECTS) add(`raw body object ${serialize(value).slice(0, 30)}`, { body: serialize(value) });
    } else if (multipart) {
      const form = schemas.deref(multipart);
      for (const name of Object.keys(form.properties ?? {})) {
        for (const value of ['a\u0000b', '\uD800', 'x'.repeat(20_000), '2147483648']) {
          const boundary = 'hostileboundary';
          const body = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--${boundary}--\r\n`;
          add(`multipart ${name}`, { body: Buffer.from(body, 'utf8'), contentType: `multipart/form-data; boundary=${boundary}` });
        }
      }
    }
    return cases;
  }

  /** Combinations no list above makes: several fields at once, drawn with a fixed seed. */
  function randomCasesOf(path: string, method: string, operation: Operation, runs: number): Case[] {
    const json = operation.requestBody?.content['application/json']?.schema;
    const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
    const template = casesOf(path, method, operation)[0];
    if (!template) return [];
    const base = template.body ?? undefined;
    const baseUrl = template.url.split('?')[0]!;
    const op = `${method.toUpperCase()} ${path}`;
    if (json) {
      const fields = schemas.fields(json, override).filter((f) => f.prelude.length === 0);
      if (fields.length === 0) return [];
      const pools = fields.map((f) => valuesFor(f));
      const arbitrary = fc.array(fc.tuple(fc.nat(fields.length - 1), fc.nat(10_000)), { minLength: 1, maxLength: 4 });
      return fc.sample(arbitrary, { seed: SEED + runs + path.length, numRuns: runs }).map((picks, i) => {
        let body = (base ? JSON.parse(base.toString()) : {}) as Json;
        for (const [fieldIndex, valueIndex] of picks) {
          const pool = pools[fieldIndex]!;
          body = setAt(body, fields[fieldIndex]!.path, pool[valueIndex % pool.length] as Json);
        }
        return { ...template, op, label: `random body #${i}`, body: serialize(body) };
      });
    }
    if (query.length > 0) {
      const arbitrary = fc.array(fc.tuple(fc.nat(query.length - 1), fc.nat(QUERY_VALUES.length - 1)), { minLength: 1, maxLength: 4 });
      return fc.sample(arbitrary, { seed: SEED + runs + path.length, numRuns: runs }).map((picks, i) => ({
        ...template,
        op,
        label: `random query #${i}`,
        url: `${baseUrl}?${picks.map(([q, v]) => `${query[q]!.name}=${QUERY_VALUES[v]}`).join('&')}`,
      }));
    }
    return [];
  }

  async function send(c: Case, outcome: Outcome, operation: Operation): Promise<number | undefined> {
    let response: Response;
    try {
      // The admin API has a listener of its own (the public one answers /admin with 404).
      const base = c.url.startsWith('/admin/') ? platform.adminUrl : platform.gatewayUrl;
      // Bytes go as a Uint8Array: fetch's types take no Buffer.
      const body = typeof c.body === 'string' || c.body === undefined ? c.body : new Uint8Array(c.body);
      response = await fetch(`${base}${c.url}`, { method: c.method, headers: c.headers, body });
    } catch (error) {
      // fetch itself refuses some header values; nothing reached the gateway then.
      const cause = (error as { cause?: { name?: string } }).cause;
      if ((error as Error).name === 'TypeError' && (!cause || cause.name === 'InvalidArgumentError')) return undefined;
      outcome.failures.push(`${c.op} [${c.label}]: no answer (${String((error as { cause?: unknown }).cause ?? error)})`);
      return undefined;
    }
    const text = await response.text();
    outcome.sent++;
    outcome.byOp.set(c.op, (outcome.byOp.get(c.op) ?? 0) + 1);
    outcome.statuses.set(response.status, (outcome.statuses.get(response.status) ?? 0) + 1);
    const contentType = response.headers.get('content-type') ?? '';
    const fail = (why: string) => outcome.failures.push(`${c.op} [${c.label}] -> ${response.status}: ${why} ${text.slice(0, 300)}`);
    if (response.status >= 500) fail('server error');
    else if (response.status >= 400) {
      const problem = envelopeProblem(response.status, contentType, text);
      if (problem) fail(`not the error envelope (${problem})`);
    } else {
      const spec = operation.responses[String(response.status)];
      if (!spec) fail('undocumented status');
      else if (response.status !== 204) {
        const schema: JsonSchema | undefined = spec.content?.['application/json']?.schema;
        if (schema) {
          const problems = contentType.includes('application/json') ? schemas.check(schema, JSON.parse(text)) : [`content-type ${contentType}`];
          if (problems.length > 0) fail(`not the success schema: ${problems.slice(0, 3).join('; ')}`);
        } else if (spec.content && !Object.keys(spec.content).some((type) => contentType.startsWith(type))) fail(`content-type ${contentType}`);
      }
    }
    return response.status;
  }

  it('takes every known SVG logo bypass as an inert logo (or refuses it), never a stored script', async () => {
    const owner = await createClient(platform.adminUrl, platform.adminToken, 'Hostile Logos');
    expect((await api('POST', '/v1/settings', { auth: owner, body: { mainColor: '#0a84ff' } })).status).toBe(201);
    for (const [what, svg] of SVG_BYPASSES) {
      const form = new FormData();
      form.set('logo', new Blob([svg], { type: 'image/svg+xml' }), 'logo.svg');
      const saved = await api<{ logo: string }>('PATCH', '/v1/settings', { auth: owner, form });
      expect({ what, status: saved.status }).toEqual({ what, status: 200 });
      const served = await (await fetch(saved.body.logo.replace(/^https?:\/\/[^/]+/, platform.gatewayUrl))).text();
      expect({ what, active: ACTIVE_SVG.filter((pattern) => pattern.test(served)).map(String) }).toEqual({ what, active: [] });
    }
  });

  it('refuses a charge whose free-form object is 33 levels deep, takes one at the limit, and the list keeps answering', async () => {
    const charge = (appInfo: unknown) => ({
      merchantId: ids.merchantId,
      amount: 1_500,
      currency: 'BRL',
      paymentMethod: { paymentType: 'credit', installments: 1 },
      paymentSource: { sourceType: 'card', cardId: ids.cardId },
      appInfo,
    });
    // 33 levels inside a body is past the nesting any body may have: refused before it is parsed.
    const deep = await api<{ error: { key: string } }>('POST', '/v1/charges', { auth: client, body: charge(nested(33)) });
    expect(deep.status).toBe(400);
    expect(deep.body.error.key).toBe('body_too_deep');
    const overLimit = await api<{ error: { details: Array<{ field: string }> } }>('POST', '/v1/charges', { auth: client, body: charge(nested(9)) });
    expect(overLimit.status).toBe(400);
    expect(overLimit.body.error.details.map((d) => d.field)).toEqual(['appInfo']);
    const atLimit = await api<{ id: string; appInfo: unknown }>('POST', '/v1/charges', { auth: client, body: charge(nested(8)) });
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.appInfo).toEqual(nested(8));
    const list = await api<{ items: Array<{ id: string }> }>('GET', '/v1/charges?limit=100', { auth: client });
    expect(list.status).toBe(200);
    expect(list.body.items.map((c) => c.id)).toContain(atLimit.body.id);
    expect((await api('GET', `/v1/charges/${atLimit.body.id}`, { auth: client })).status).toBe(200);
  });

  it('answers what Node refuses before express with the error envelope', async () => {
    const cases: Array<{ name: string; bytes: Buffer | string; status: number }> = [
      { name: 'a byte over 0x7f in the path', bytes: Buffer.concat([Buffer.from('GET /v1/customers/'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]), status: 400 },
      { name: 'NUL in a header', bytes: 'GET /v1/customers HTTP/1.1\r\nHost: x\r\nX-Test: a\u0000b\r\n\r\n', status: 400 },
      { name: 'a 100 KB header', bytes: `GET /v1/customers HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`, status: 431 },
      { name: 'a bad Content-Length', bytes: 'POST /v1/customers HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', status: 400 },
      { name: 'a bad method', bytes: 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', status: 400 },
      { name: 'a header without a colon', bytes: 'GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n', status: 400 },
      { name: 'a bad chunk size', bytes: 'POST /v1/customers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', status: 400 },
      { name: 'Content-Length and Transfer-Encoding both', bytes: 'POST /v1/customers HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400 },
    ];
    for (const c of cases) {
      const response = await rawRequest(port, c.bytes);
      expect({ name: c.name, status: response.status }).toEqual({ name: c.name, status: c.status });
      expect({ name: c.name, problem: envelopeProblem(response.status, response.headers['content-type'] ?? '', response.body) }).toEqual({ name: c.name, problem: undefined });
    }
    expect((await api('GET', '/health')).status).toBe(200);
  });

  it('answers every hostile request to every route with a 4xx envelope or a documented success, and refused ones write nothing', async () => {
    const operations = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, operation]) => ({ path, method, operation })))
      // Deletes last, so the records the other routes name still exist while they run.
      .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    expect(operations.length).toBeGreaterThanOrEqual(53);

    const outcome: Outcome = { sent: 0, failures: [], byOp: new Map(), statuses: new Map() };
    const writesByRefused: string[] = [];
    let before = await settled();
    const started = Date.now();
    const timings: Array<[string, number]> = [];
    for (const { path, method, operation } of operations) {
      const opStarted = Date.now();
      const cases = [...casesOf(path, method, operation), ...randomCasesOf(path, method, operation, RANDOM_CASES)];
      for (let i = 0; i < cases.length; i += BATCH) {
        const batch = cases.slice(i, i + BATCH);
        const results: Array<{ c: Case; status: number | undefined }> = [];
        for (let j = 0; j < batch.length; j += CONCURRENCY) {
          const slice = batch.slice(j, j + CONCURRENCY);
          const statuses = await Promise.all(slice.map((c) => send(c, outcome, operation)));
          slice.forEach((c, k) => results.push({ c, status: statuses[k] }));
        }
        const refusedOnly = results.every(({ c, status }) => status === undefined || c.method === 'GET' || REFUSED.has(status));
        if (refusedOnly) {
          const after = await snapshot();
          const changes = diff(before, after);
          if (changes.length > 0) {
            const labels = results.filter(({ c }) => c.method !== 'GET').map(({ c, status }) => `${c.label} (${status})`);
            writesByRefused.push(`${method.toUpperCase()} ${path}: ${changes.join(', ')} after refused requests ${labels.slice(0, 5).join(' | ')}`);
          }
          before = after;
        } else {
          before = await settled();
        }
      }
      timings.push([`${method.toUpperCase()} ${path}`, Date.now() - opStarted]);
    }
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `hostile suite: ${outcome.sent} requests over ${operations.length} routes in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(outcome.statuses))}; slowest ${JSON.stringify(timings.sort((a, b) => b[1] - a[1]).slice(0, 6))}\n`,
    );

    expect(outcome.failures.slice(0, 40)).toEqual([]);
    expect(writesByRefused).toEqual([]);
    expect(outcome.sent).toBeGreaterThanOrEqual(10_000);
    for (const { path, method } of operations) {
      expect({ op: `${method} ${path}`, covered: (outcome.byOp.get(`${method.toUpperCase()} ${path}`) ?? 0) >= 10 }).toEqual({ op: `${method} ${path}`, covered: true });
    }
  }, 600_000);
});
