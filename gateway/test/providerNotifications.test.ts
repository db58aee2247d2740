import { AppError } from '@platform/kit';
import request from 'supertest';
import { RAW_BODY_MAX_BYTES } from '../src/http/body';
import { buildGateway, upstreamCalls } from './helpers';

const PROVIDER_ID = '7d3c2a10-5b6e-4f8a-9c1d-2e3f4a5b6c7d';

interface NotificationCall {
  providerId: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  rawBody: Buffer;
}

const received = (reply: { status: number; bodyJson: string } = { status: 200, bodyJson: '' }) => ({
  receiveProviderNotification: async (_r: NotificationCall) => reply,
});

describe('POST /v1/provider-notifications/{providerId}', () => {
  it('passes the body on byte for byte, with the headers and query, without client credentials', async () => {
    const gw = buildGateway({ payments: received() });
    // Spacing and key order a JSON parser would lose: a signature is over exactly these bytes.
    const body = '{ "PaymentId":"a1b2",  "ChangeType": 1 }';
    const res = await request(gw.app)
      .post(`/v1/provider-notifications/${PROVIDER_ID}?event=payment&event=refund`)
      .set('Content-Type', 'application/json')
      .set('X-Signature', 'sha256=abc')
      .send(body);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const [call] = upstreamCalls(gw.paymentsCalls);
    const sent = call!.request as unknown as NotificationCall;
    expect(call!.method).toBe('receiveProviderNotification');
    expect(sent.providerId).toBe(PROVIDER_ID);
    expect(Buffer.from(sent.rawBody).toString('utf8')).toBe(body);
    expect(sent.headers).toMatchObject({ 'x-signature': 'sha256=abc', 'content-type': 'application/json' });
    expect(sent.headers).not.toHaveProperty('connection');
    expect(sent.query).toEqual({ event: 'payment, refund' });
    expect(gw.settingsCalls).toEqual([]);
  });

  it('takes any media type, and an empty body', async () => {
    const gw = buildGateway({ payments: received() });
    const form = await request(gw.app).post(`/v1/provider-notifications/${PROVIDER_ID}`).set('Content-Type', 'application/x-www-form-urlencoded').send('tid=123&status=4');
    expect(form.status).toBe(200);
    const empty = await request(gw.app).post(`/v1/provider-notifications/${PROVIDER_ID}`);
    expect(empty.status).toBe(200);
    const bodies = upstreamCalls(gw.paymentsCalls).map((c) => Buffer.from((c.request as unknown as NotificationCall).rawBody).toString('utf8'));
    expect(bodies).toEqual(['tid=123&status=4', '']);
  });

  it("answers what the provider's connector asks for", async () => {
    const gw = buildGateway({ payments: received({ status: 202, bodyJson: JSON.stringify({ ack: 'ok' }) }) });
    const res = await request(gw.app).post(`/v1/provider-notifications/${PROVIDER_ID}`).set('Content-Type', 'application/json').send('{}');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ack: 'ok' });
  });

  it('answers the 401 and 404 envelopes payments decides', async () => {
    const gw = buildGateway({
      payments: {
        receiveProviderNotification: async (r: NotificationCall) => {
          if (r.providerId === PROVIDER_ID) throw new AppError('unauthenticated', 'The notification could not be verified');
          throw new AppError('not_found', 'Provider not found', { key: 'not_found' });
        },
      },
    });
    const refused = await request(gw.app).post(`/v1/provider-notifications/${PROVIDER_ID}`).set('Content-Type', 'application/json').send('{"forged":true}');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 401 });
    const unknown = await request(gw.app).post('/v1/provider-notifications/not-a-uuid').set('Content-Type', 'application/json').send('{}');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 404 });
  });

  it(`refuses a body over ${RAW_BODY_MAX_BYTES} bytes with 413, without asking payments`, async () => {
    const gw = buildGateway({ payments: received() });
    const res = await request(gw.app)
      .post(`/v1/provider-notifications/${PROVIDER_ID}`)
      .set('Content-Type', 'application/json')
      .send(`"${'a'.repeat(RAW_BODY_MAX_BYTES)}"`);
    expect(res.status).toBe(413);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it('is rate limited per address like the other public routes', async () => {
    const gw = buildGateway({
      payments: received(),
      config: { RATE_LIMIT_ENABLED: true, RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 2, RATE_LIMIT_BURST: 0 },
    });
    const post = () => request(gw.app).post(`/v1/provider-notifications/${PROVIDER_ID}`).set('Content-Type', 'application/json').send('{}');
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('2');
    // Two a second: a handful in a row meets the limit, whatever second they start in.
    const statuses: number[] = [];
    for (let i = 0; i < 50 && !statuses.includes(429); i++) statuses.push((await post()).status);
    expect(statuses).toContain(429);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
  });
});
