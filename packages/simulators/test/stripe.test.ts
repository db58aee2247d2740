import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStripeSimulator, type RunningStripeSimulator } from '../src/stripe';

const KEY = 'sk_test_simulatorAccountOne000000001';
const OTHER_KEY = 'sk_test_simulatorAccountTwo000000002';
const SECRET = 'whsec_endpointSigningSecret0001';

describe('Stripe simulator', () => {
  let simulator: RunningStripeSimulator;
  let endpoint: Server;
  const posted: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const now = new Date('2026-03-10T12:00:00Z');

  beforeAll(async () => {
    endpoint = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        posted.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', () => resolve()));
    const port = (endpoint.address() as AddressInfo).port;
    simulator = await startStripeSimulator({
      clock: () => now,
      accounts: [{ secretKey: KEY, webhookSecret: SECRET, webhookUrl: `http://127.0.0.1:${port}/hooks` }, { secretKey: OTHER_KEY }],
    });
  });
  afterAll(async () => {
    await simulator.close();
    await new Promise<void>((resolve) => endpoint.close(() => resolve()));
  });

  const send = async (method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}, key = KEY) => {
    const answer = await fetch(`${simulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    return { status: answer.status, headers: answer.headers, body: (await answer.json()) as Record<string, unknown> };
  };
  const cardIntent = (number: string, extra: Record<string, string> = {}) => ({
    amount: '1000',
    currency: 'brl',
    confirm: 'true',
    capture_method: 'manual',
    'allowed_payment_method_types[0]': 'card',
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': number,
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': '2030',
    'payment_method_data[card][cvc]': '123',
    'metadata[charge_id]': 'charge-1',
    ...extra,
  });

  it('answers 401 in Stripe’s shape without a key or with a wrong one, repeating only its last characters', async () => {
    const none = await fetch(`${simulator.url}/v1/payment_intents/pi_1`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="Stripe"');
    const noneBody = (await none.json()) as { error: { type: string; message: string } };
    expect(noneBody.error.type).toBe('invalid_request_error');
    expect(noneBody.error.message).toMatch(/^You did not provide an API key/);
    const wrong = await send('GET', '/v1/payment_intents/pi_1', undefined, {}, 'sk_test_wrongKeyOfSomeone1234');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_*****************1234' } });
  });

  it('creates and confirms a PaymentIntent from form-encoded card data, and retrieves it with or without its charge', async () => {
    const created = await send('POST', '/v1/payment_intents', cardIntent('4242424242424242', { 'expand[0]': 'latest_charge' }));
    expect(created.status).toBe(200);
    expect(created.headers.get('request-id')).toMatch(/^req_/);
    expect(created.body).toMatchObject({
      object: 'payment_intent',
      amount: 1000,
      amount_capturable: 1000,
      currency: 'brl',
      status: 'requires_capture',
      capture_method: 'manual',
      metadata: { charge_id: 'charge-1' },
      created: Math.floor(now.getTime() / 1000),
      latest_charge: { object: 'charge', captured: false, status: 'succeeded', payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242', checks: { cvc_check: 'pass' } } } },
    });
    const id = created.body.id as string;
    expect(JSON.stringify(created.body)).not.toContain('4242424242424242');
    const plain = await send('GET', `/v1/payment_intents/${id}`);
    expect(typeof plain.body.latest_charge).toBe('string');
    const expanded = await send('GET', `/v1/payment_intents/${id}?expand%5B0%5D=latest_charge`);
    expect((expanded.body.latest_charge as { id: string }).id).toBe(plain.body.latest_charge);
    expect((await send('GET', `/v1/payment_intents/${id}`, undefined, {}, OTHER_KEY)).status).toBe(404);
  });

  it('replays the first answer for a repeated Idempotency-Key and refuses the key with other parameters', async () => {
    const before = simulator.paymentIntentsCreated();
    const first = await send('POST', '/v1/payment_intents', cardIntent('5555555555554444'), { 'idempotency-key': 'key-1' });
    const replay = await send('POST', '/v1/payment_intents', cardIntent('5555555555554444'), { 'idempotency-key': 'key-1' });
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(simulator.paymentIntentsCreated()).toBe(before + 1);
    const other = await send('POST', '/v1/payment_intents', cardIntent('5555555555554444', { amount: '1001' }), { 'idempotency-key': 'key-1' });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ type: 'idempotency_error' });
    // Keys belong to an account: another account's same key is a new request.
    const elsewhere = await send('POST', '/v1/payment_intents', cardIntent('5555555555554444'), { 'idempotency-key': 'key-1' }, OTHER_KEY);
    expect(elsewhere.status).toBe(200);
    expect(simulator.paymentIntentsCreated()).toBe(before + 2);
  });

  it('declines the documented test cards with 402 card errors that carry the PaymentIntent', async () => {
    const declined = await send('POST', '/v1/payment_intents', cardIntent('4000000000009987'));
    expect(declined.status).toBe(402);
    const error = declined.body.error as Record<string, unknown>;
    expect(error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'lost_card', message: 'Your card was declined.' });
    expect(error.payment_intent).toMatchObject({ object: 'payment_intent', status: 'requires_payment_method', last_payment_error: { decline_code: 'lost_card' } });
    const expired = await send('POST', '/v1/payment_intents', cardIntent('4000000000000069'));
    expect(expired.body.error).toMatchObject({ code: 'expired_card', decline_code: 'expired_card' });
    const luhn = await send('POST', '/v1/payment_intents', cardIntent('4242424242424241'));
    expect(luhn.status).toBe(402);
    expect(luhn.body.error).toMatchObject({ type: 'card_error', code: 'incorrect_number' });
    expect(luhn.body.error).not.toHaveProperty('payment_intent');
  });

  it('captures only what was authorized, once, and answers Stripe’s state errors', async () => {
    const id = (await send('POST', '/v1/payment_intents', cardIntent('4242424242424242'))).body.id as string;
    const tooMuch = await send('POST', `/v1/payment_intents/${id}/capture`, { amount_to_capture: '1001' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatchObject({ type: 'invalid_request_error', code: 'amount_too_large', param: 'amount_to_capture' });
    const captured = await send('POST', `/v1/payment_intents/${id}/capture`, { amount_to_capture: '700' });
    expect(captured.body).toMatchObject({ status: 'succeeded', amount_received: 700, amount_capturable: 0 });
    // The 300 not captured is released as a refund the charge counts.
    expect(simulator.paymentIntent(id)).toMatchObject({ latest_charge: { amount_captured: 700, amount_refunded: 300, refunded: false, refunds: { data: [{ amount: 300 }] } } });
    const again = await send('POST', `/v1/payment_intents/${id}/capture`, {});
    expect(again.body.error).toMatchObject({ code: 'payment_intent_unexpected_state' });
    const canceled = await send('POST', `/v1/payment_intents/${id}/cancel`, {});
    expect(canceled.body.error).toMatchObject({ code: 'payment_intent_unexpected_state' });
    const refund = await send('POST', '/v1/refunds', { payment_intent: id, amount: '200' });
    expect(refund.body).toMatchObject({ object: 'refund', amount: 200, status: 'succeeded', payment_intent: id });
    const tooBig = await send('POST', '/v1/refunds', { payment_intent: id, amount: '501' });
    expect(tooBig.body.error).toMatchObject({ code: 'amount_too_large' });
    expect((await send('GET', `/v1/refunds/${refund.body.id as string}`)).body).toEqual(refund.body);
  });

  it('answers 404 for what it does not know, and refuses a JSON body', async () => {
    expect((await send('GET', '/v1/payment_intents/pi_unknown')).body.error).toMatchObject({ code: 'resource_missing', param: 'intent' });
    expect((await send('GET', '/v1/charges')).status).toBe(404);
    const json = await fetch(`${simulator.url}/v1/payment_intents`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"amount":1}' });
    expect(json.status).toBe(400);
  });

  it('posts each event signed with the endpoint’s secret (t and v1 = HMAC-SHA256 of "t.payload")', async () => {
    posted.length = 0;
    const id = (await send('POST', '/v1/payment_intents', cardIntent('4242424242424242', { capture_method: 'automatic' }))).body.id as string;
    await simulator.flush();
    const succeeded = posted.find((p) => (JSON.parse(p.body) as { type: string }).type === 'payment_intent.succeeded')!;
    expect(JSON.parse(succeeded.body)).toMatchObject({ object: 'event', type: 'payment_intent.succeeded', data: { object: { id, status: 'succeeded' } } });
    const signature = succeeded.headers['stripe-signature'] as string;
    const t = Math.floor(now.getTime() / 1000);
    expect(signature).toBe(`t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${succeeded.body}`).digest('hex')}`);
    expect(simulator.events().find((d) => d.event.type === 'payment_intent.succeeded' && d.event.data.object.id === id)).toMatchObject({ status: 200, signature });
    // The account without an endpoint has its events recorded, not posted.
    const before = posted.length;
    await send('POST', '/v1/payment_intents', cardIntent('4242424242424242'), {}, OTHER_KEY);
    await simulator.flush();
    expect(posted.length).toBe(before);
  });

  it('posts to the endpoint URL it was last given, and answers 500 api_error during an outage', async () => {
    const port = (endpoint.address() as AddressInfo).port;
    simulator.setWebhookUrl(KEY, undefined);
    const before = posted.length;
    await send('POST', '/v1/payment_intents', cardIntent('4242424242424242'));
    await simulator.flush();
    expect(posted.length).toBe(before);
    simulator.setWebhookUrl(KEY, `http://127.0.0.1:${port}/hooks`);
    await send('POST', '/v1/payment_intents', cardIntent('4242424242424242'));
    await simulator.flush();
    expect(posted.length).toBeGreaterThan(before);
    simulator.outage(true);
    try {
      const down = await send('GET', '/v1/payment_intents/pi_1');
      expect(down).toMatchObject({ status: 500, body: { error: { type: 'api_error' } } });
    } finally {
      simulator.outage(false);
    }
  });

  it('makes a Pix PaymentIntent wait for its payment with a BR Code, and pays it', async () => {
    const created = await send('POST', '/v1/payment_intents', {
      amount: '2500',
      currency: 'brl',
      confirm: 'true',
      'allowed_payment_method_types[0]': 'pix',
      'payment_method_data[type]': 'pix',
      'payment_method_options[pix][expires_after_seconds]': '600',
    });
    expect(created.body).toMatchObject({ status: 'requires_action', next_action: { type: 'pix_display_qr_code', pix_display_qr_code: { expires_at: Math.floor(now.getTime() / 1000) + 600 } } });
    const data = (created.body.next_action as { pix_display_qr_code: { data: string } }).pix_display_qr_code.data;
    expect(data).toMatch(/^000201.*5405 ?25\.00/);
    await simulator.payPix(created.body.id as string);
    expect(simulator.paymentIntent(created.body.id as string)).toMatchObject({ status: 'succeeded', amount_received: 2500 });
    const manual = await send('POST', '/v1/payment_intents', { amount: '2500', currency: 'brl', confirm: 'true', capture_method: 'manual', 'payment_method_data[type]': 'pix' });
    expect(manual.status).toBe(400);
  });
});
