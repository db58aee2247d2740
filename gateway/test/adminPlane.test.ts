import { createHash } from 'node:crypto';
import { SERVICES } from '@platform/catalog';
import type { settings } from '@platform/contracts';
import { createLogger } from '@platform/kit';
import request from 'supertest';
import { loadGatewayConfig } from '../src/config';
import { ADMIN_TOKEN, buildGateway, CLIENT_ID, CREATED_AT, UPDATED_AT, type CapturedLogger } from './helpers';

const client: settings.Client = { id: CLIENT_ID, name: 'Store', environment: 'sandbox', prepaymentEnabled: false, createdAt: CREATED_AT, updatedAt: UPDATED_AT };
const addresses = Object.fromEntries(SERVICES.map((s, i) => [s.addressEnv, `127.0.0.1:${50051 + i}`]));

const ALICE = 'alice-token-0123456789abcdef';
const ROBOT = 'f3a9c1d7e5b2f3a9c1d7e5b2';
/** How an unnamed token is known in the logs: the first 8 hex digits of its SHA-256. */
const idOf = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 8);

/** The admin API with the tokens a configuration gives it. */
function adminWith(env: NodeJS.ProcessEnv, logger?: CapturedLogger) {
  const config = loadGatewayConfig({ ...addresses, ...env });
  return buildGateway({ settings: { getClient: async () => client }, adminTokens: config.ADMIN_TOKENS, logger });
}

const getClient = (app: Parameters<typeof request>[0], token: string) => request(app).get(`/admin/v1/clients/${CLIENT_ID}`).set('X-Admin-Token', token);

describe('the admin API on its own listener', () => {
  it('is not served by the public app: /admin answers 404 there, as an unknown route does, whatever the method', async () => {
    const gw = buildGateway({ settings: { getClient: async () => client, createClient: async () => ({ client, apiKey: 'sk', keyId: 'k' }) } });
    const unknown = await request(gw.app).get('/v2/nothing');
    for (const res of [
      await getClient(gw.app, ADMIN_TOKEN),
      await request(gw.app).post('/admin/v1/clients').set('X-Admin-Token', ADMIN_TOKEN).send({ name: 'Store', environment: 'sandbox' }),
      await request(gw.app).delete(`/admin/v1/clients/${CLIENT_ID}/api-keys/key-1`).set('X-Admin-Token', ADMIN_TOKEN),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 404, key: unknown.body.error.key, type: unknown.body.error.type });
    }
    expect(gw.settingsCalls.filter((c) => c.method !== 'authenticate')).toHaveLength(0);
    // The admin listener serves it, and nothing else.
    expect((await getClient(gw.admin, ADMIN_TOKEN)).status).toBe(200);
    expect((await request(gw.admin).get('/v1/customers')).status).toBe(404);
    expect((await request(gw.admin).get('/health')).status).toBe(404);
  });
});

describe('several admin tokens (ADMIN_TOKENS)', () => {
  it('accepts each of them at once, and ADMIN_TOKEN as one more', async () => {
    const gw = adminWith({ ADMIN_TOKENS: `alice:${ALICE}, ${ROBOT}`, ADMIN_TOKEN });
    for (const token of [ALICE, ROBOT, ADMIN_TOKEN]) expect((await getClient(gw.admin, token)).status).toBe(200);
    for (const token of [`alice:${ALICE}`, 'alice', ALICE.slice(0, -1), `${ROBOT}x`]) expect((await getClient(gw.admin, token)).status).toBe(401);
  });

  it('locks a token out once it is removed, while the other keeps working (a rotation without downtime)', async () => {
    const before = adminWith({ ADMIN_TOKENS: `alice:${ALICE},${ROBOT}` });
    expect((await getClient(before.admin, ALICE)).status).toBe(200);
    expect((await getClient(before.admin, ROBOT)).status).toBe(200);
    const after = adminWith({ ADMIN_TOKENS: ROBOT });
    const refused = await getClient(after.admin, ALICE);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 401, key: 'invalid_admin_token' });
    expect((await getClient(after.admin, ROBOT)).status).toBe(200);
  });
});

describe('the audit log', () => {
  it('writes who, what, from where and the answer of every admin request, never the token', async () => {
    const gw = adminWith({ ADMIN_TOKENS: `alice:${ALICE},${ROBOT}` });
    await getClient(gw.admin, ALICE).set('X-Request-Id', 'audit-1');
    await request(gw.admin).post('/admin/v1/clients').set('X-Admin-Token', ROBOT).set('X-Request-Id', 'audit-2').send({ name: '' });
    await getClient(gw.admin, 'a-wrong-token-guessed-0123').set('X-Request-Id', 'audit-3');
    await request(gw.admin).get('/admin/v1/nothing').set('X-Admin-Token', ALICE).set('X-Request-Id', 'audit-4');
    const audit = gw.lines.filter((l) => l.audit === 'admin');
    expect(audit).toHaveLength(4);
    const [read, invalid, refused, unknown] = audit;
    expect(read).toMatchObject({
      level: 30,
      requestId: 'audit-1',
      admin: 'alice',
      action: 'getClientAccount',
      method: 'GET',
      route: '/admin/v1/clients/:clientId',
      path: `/admin/v1/clients/${CLIENT_ID}`,
      clientIp: expect.stringMatching(/127\.0\.0\.1$/),
      status: 200,
      msg: `admin GET /admin/v1/clients/${CLIENT_ID} 200 by alice`,
    });
    expect(invalid).toMatchObject({ requestId: 'audit-2', admin: idOf(ROBOT), action: 'createClientAccount', method: 'POST', route: '/admin/v1/clients', status: 400 });
    expect(refused).toMatchObject({ requestId: 'audit-3', admin: null, action: 'getClientAccount', status: 401 });
    expect(unknown).toMatchObject({ requestId: 'audit-4', admin: null, action: null, route: null, path: '/admin/v1/nothing', status: 404 });
    const all = JSON.stringify(gw.lines);
    for (const token of [ALICE, ROBOT, 'a-wrong-token-guessed-0123']) expect(all).not.toContain(token);
  });

  it('is written at a production log level (warn), where the access log is quiet', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger({ name: 'gateway', level: 'warn', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const gw = adminWith({ ADMIN_TOKENS: ROBOT }, { log, lines });
    expect((await getClient(gw.admin, ROBOT)).status).toBe(200);
    expect(lines).toEqual([expect.objectContaining({ audit: 'admin', admin: idOf(ROBOT), action: 'getClientAccount', status: 200 })]);
    expect(JSON.stringify(lines)).not.toContain(ROBOT);
  });

  it('names the client as TRUST_PROXY says, from X-Forwarded-For of a trusted proxy only', async () => {
    const config = loadGatewayConfig({ ...addresses, ADMIN_TOKENS: ROBOT, TRUST_PROXY: '1' });
    const trusting = buildGateway({ settings: { getClient: async () => client }, adminTokens: config.ADMIN_TOKENS, config: { TRUST_PROXY: config.TRUST_PROXY } });
    await getClient(trusting.admin, ROBOT).set('X-Forwarded-For', '198.51.100.7');
    expect(trusting.lines.find((l) => l.audit === 'admin')).toMatchObject({ clientIp: '198.51.100.7' });
    const plain = adminWith({ ADMIN_TOKENS: ROBOT });
    await getClient(plain.admin, ROBOT).set('X-Forwarded-For', '198.51.100.7');
    expect(plain.lines.find((l) => l.audit === 'admin')).toMatchObject({ clientIp: expect.stringMatching(/127\.0\.0\.1$/) });
  });
});
