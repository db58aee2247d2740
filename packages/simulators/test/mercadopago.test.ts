import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MERCADOPAGO_CARDHOLDER_OUTCOMES,
  MERCADOPAGO_TEST_CARDS,
  MERCADOPAGO_TEST_CPF,
  startMercadoPagoSimulator,
  type MercadoPagoNotification,
  type MercadoPagoSimulator,
} from '../src/mercadopago';

const TOKEN = 'TEST-1234567890123456-031012-0123456789abcdef0123456789abcdef-123456789';
const OTHER_TOKEN = 'TEST-6543210987654321-031012-fedcba9876543210fedcba9876543210-987654321';
const SECRET = 'webhook-secret-of-the-application';

describe('Mercado Pago simulator', () => {
  let simulator: MercadoPagoSimulator;
  let now = new Date('2026-03-10T12:00:00Z');
  let keys = 0;
  const notifications: MercadoPagoNotification[] = [];

  beforeAll(async () => {
    simulator = await startMercadoPagoSimulator({
      clock: () => now,
      accounts: [{ accessToken: TOKEN, webhookSecret: SECRET, userId: 44444 }, { accessToken: OTHER_TOKEN }],
      notify: (n) => void notifications.push(n),
    });
  });
  afterAll(() => simulator.close());

  const send = async (method: string, path: string, body?: unknown, options: { token?: string | null; key?: string } = {}) => {
    const token = options.token === undefined ? TOKEN : options.token;
    const answer = await fetch(`${simulator.url}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'GET' ? {} : { 'x-idempotency-key': options.key ?? `key-${++keys}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const cardToken = async (name: string, card: { number: string; securityCode: string; expirationMonth: number; expirationYear: number } = MERCADOPAGO_TEST_CARDS.mastercard, token = TOKEN) => {
    const answer = await send(
      'POST',
      '/v1/card_tokens',
      {
        card_number: card.number,
        expiration_month: String(card.expirationMonth),
        expiration_year: String(card.expirationYear),
        security_code: card.securityCode,
        cardholder: { name, identification: { type: 'CPF', number: MERCADOPAGO_TEST_CPF } },
      },
      { token },
    );
    expect(answer.status).toBe(201);
    return String(answer.body.id);
  };
  const cardPayment = async (name: string, overrides: Record<string, unknown> = {}, key?: string) =>
    send(
      'POST',
      '/v1/payments',
      { transaction_amount: 10.5, token: await cardToken(name), installments: 1, payment_method_id: 'master', payer: { email: 'payer@example.com' }, ...overrides },
      key ? { key } : {},
    );

  it('refuses a missing or unknown access token in its error shape', async () => {
    const missing = await send('GET', '/v1/payments/1', undefined, { token: null });
    expect(missing).toEqual({
      status: 401,
      body: { message: 'Must provide your access_token to proceed', error: 'unauthorized', status: 401, cause: [{ code: 5, description: 'Must provide your access_token to proceed', data: null }] },
    });
    const unknown = await send('POST', '/v1/payments', { transaction_amount: 1 }, { token: 'TEST-not-a-known-token' });
    expect(unknown).toEqual({ status: 401, body: { message: 'invalid access token', error: 'unauthorized', status: 401, cause: [] } });
  });

  it('tokenizes a card and approves an APRO payment in decimal reais, which it answers and queries', async () => {
    const created = await cardPayment('APRO', { transaction_amount: 20.99, external_reference: 'charge-1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'approved', status_detail: 'accredited', captured: true, transaction_amount: 20.99, currency_id: 'BRL', external_reference: 'charge-1' });
    expect(created.body.card).toMatchObject({ first_six_digits: '503143', last_four_digits: '6351' });
    expect(JSON.stringify(created.body)).not.toContain(MERCADOPAGO_TEST_CARDS.mastercard.number);
    expect(simulator.payment(created.body.id as number)).toMatchObject({ amount: 2099, status: 'approved' });
    const read = await send('GET', `/v1/payments/${String(created.body.id)}`);
    expect(read.body).toMatchObject({ id: created.body.id, status: 'approved', transaction_amount: 20.99 });
  });

  it('gives each documented cardholder name its status and status_detail', async () => {
    for (const [code, outcome] of Object.entries(MERCADOPAGO_CARDHOLDER_OUTCOMES)) {
      const created = await cardPayment(`${code} Souza`);
      expect({ code, status: created.body.status, detail: created.body.status_detail }).toEqual({ code, status: outcome.status, detail: outcome.statusDetail });
    }
    expect(Object.keys(MERCADOPAGO_CARDHOLDER_OUTCOMES)).toHaveLength(17);
  });

  it('uses a card token once', async () => {
    const token = await cardToken('APRO');
    const body = { transaction_amount: 5, token, installments: 1, payment_method_id: 'master', payer: { email: 'payer@example.com' } };
    expect((await send('POST', '/v1/payments', body)).status).toBe(201);
    const again = await send('POST', '/v1/payments', body);
    expect(again).toMatchObject({ status: 400, body: { cause: [{ code: 2006, description: 'Card Token not found' }] } });
  });

  it('refuses card data it cannot tokenize, and a payment without a payer e-mail', async () => {
    const invalid = await send('POST', '/v1/card_tokens', { card_number: '5031433215406352', expiration_month: '11', expiration_year: '2030', security_code: '123', cardholder: { name: 'APRO' } });
    expect(invalid).toMatchObject({ status: 400, body: { cause: [{ code: 'E301' }] } });
    const noEmail = await cardPayment('APRO', { payer: {} });
    expect(noEmail).toMatchObject({ status: 400, body: { error: 'bad_request', cause: [{ code: 4050 }] } });
    const cents = await cardPayment('APRO', { transaction_amount: 10.555 });
    expect(cents).toMatchObject({ status: 400, body: { cause: [{ code: 4037 }] } });
  });

  it('answers a repeated X-Idempotency-Key with the first answer and creates one payment', async () => {
    const before = simulator.paymentsCreated;
    const first = await cardPayment('APRO', {}, 'same-key');
    const second = await cardPayment('APRO', {}, 'same-key');
    expect(second).toEqual(first);
    expect(simulator.paymentsCreated).toBe(before + 1);
  });

  it('captures part of an authorization once, then refunds it in parts up to what was captured', async () => {
    const created = await cardPayment('APRO', { transaction_amount: 100, capture: false });
    expect(created.body).toMatchObject({ status: 'authorized', status_detail: 'pending_capture', captured: false });
    const id = String(created.body.id);
    expect((await send('PUT', `/v1/payments/${id}`, { capture: true, transaction_amount: 120 })).status).toBe(400);
    const captured = await send('PUT', `/v1/payments/${id}`, { capture: true, transaction_amount: 60 });
    expect(captured.body).toMatchObject({ status: 'approved', status_detail: 'accredited', captured: true, transaction_amount: 60 });
    expect((await send('PUT', `/v1/payments/${id}`, { capture: true, transaction_amount: 10 })).status).toBe(400);
    const part = await send('POST', `/v1/payments/${id}/refunds`, { amount: 25.5 });
    expect(part).toMatchObject({ status: 201, body: { payment_id: Number(id), amount: 25.5, status: 'approved' } });
    expect((await send('GET', `/v1/payments/${id}`)).body).toMatchObject({ status: 'approved', status_detail: 'partially_refunded', transaction_amount_refunded: 25.5 });
    expect((await send('POST', `/v1/payments/${id}/refunds`, { amount: 40 })).status).toBe(400);
    const rest = await send('POST', `/v1/payments/${id}/refunds`, {});
    expect(rest.body).toMatchObject({ amount: 34.5, status: 'approved' });
    expect((await send('GET', `/v1/payments/${id}`)).body).toMatchObject({ status: 'refunded', status_detail: 'refunded', transaction_amount_refunded: 60 });
  });

  it('cancels an authorization, refuses to cancel an approved payment, and expires one left past the capture window', async () => {
    const held = await cardPayment('APRO', { capture: false });
    const cancelled = await send('PUT', `/v1/payments/${String(held.body.id)}`, { status: 'cancelled' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', status_detail: 'by_collector' });
    const approved = await cardPayment('APRO');
    expect((await send('PUT', `/v1/payments/${String(approved.body.id)}`, { status: 'cancelled' })).status).toBe(400);
    const forgotten = await cardPayment('APRO', { capture: false });
    now = new Date(now.getTime() + 8 * 86_400_000);
    expect((await send('GET', `/v1/payments/${String(forgotten.body.id)}`)).body).toMatchObject({ status: 'cancelled', status_detail: 'expired' });
  });

  it('keeps one account’s payments from another', async () => {
    const created = await cardPayment('APRO');
    const other = await send('GET', `/v1/payments/${String(created.body.id)}`, undefined, { token: OTHER_TOKEN });
    expect(other).toMatchObject({ status: 404, body: { error: 'not_found', cause: [{ code: 2000 }] } });
  });

  it('creates a Pix with its copia e cola, and notifies its payment signed as Webhooks are', async () => {
    const created = await send('POST', '/v1/payments', {
      transaction_amount: 25,
      payment_method_id: 'pix',
      payer: { email: 'payer@example.com', identification: { type: 'CPF', number: MERCADOPAGO_TEST_CPF } },
      date_of_expiration: new Date(now.getTime() + 3600_000).toISOString(),
    });
    expect(created.body).toMatchObject({ status: 'pending', status_detail: 'pending_waiting_transfer', payment_method_id: 'pix', transaction_amount: 25 });
    const data = (created.body.point_of_interaction as { transaction_data: { qr_code: string } }).transaction_data;
    expect(data.qr_code).toMatch(/^000201.*540525\.00.*6304[0-9A-F]{4}$/);
    const tooSoon = await send('POST', '/v1/payments', { transaction_amount: 25, payment_method_id: 'pix', payer: { email: 'payer@example.com' }, date_of_expiration: new Date(now.getTime() + 60_000).toISOString() });
    expect(tooSoon.status).toBe(400);

    notifications.length = 0;
    simulator.payPix(created.body.id as number);
    expect((await send('GET', `/v1/payments/${String(created.body.id)}`)).body).toMatchObject({ status: 'approved', status_detail: 'accredited' });
    const [notification] = notifications;
    expect(notification?.body).toMatchObject({ type: 'payment', action: 'payment.updated', user_id: 44444, data: { id: String(created.body.id) } });
    expect(notification?.query).toEqual({ 'data.id': String(created.body.id), type: 'payment' });
    const [ts, v1] = notification!.headers['x-signature']!.split(',').map((part) => part.split('=')[1]);
    const manifest = `id:${String(created.body.id)};request-id:${notification!.headers['x-request-id']!};ts:${ts!};`;
    expect(v1).toBe(createHmac('sha256', SECRET).update(manifest).digest('hex'));
    expect(Number(ts)).toBe(Math.floor(now.getTime() / 1000));
  });

  it('expires a Pix nobody paid at its date_of_expiration', async () => {
    const created = await send('POST', '/v1/payments', { transaction_amount: 3, payment_method_id: 'pix', payer: { email: 'payer@example.com' } });
    now = new Date(now.getTime() + 86_400_000 + 1000);
    expect((await send('GET', `/v1/payments/${String(created.body.id)}`)).body).toMatchObject({ status: 'cancelled', status_detail: 'expired' });
    expect(() => simulator.payPix(created.body.id as number)).toThrow('not a pending Pix');
  });

  it('keeps a refund in process out of the refunded amount until it is settled', async () => {
    const created = await cardPayment('APRO', { transaction_amount: 50 });
    const id = String(created.body.id);
    simulator.holdRefunds(true);
    try {
      const refund = await send('POST', `/v1/payments/${id}/refunds`, { amount: 20 });
      expect(refund.body).toMatchObject({ amount: 20, status: 'in_process' });
      expect((await send('GET', `/v1/payments/${id}`)).body).toMatchObject({ status: 'approved', transaction_amount_refunded: 0, refunds: [{ status: 'in_process', amount: 20 }] });
      expect((await send('POST', `/v1/payments/${id}/refunds`, { amount: 30.01 })).status).toBe(400);
    } finally {
      simulator.holdRefunds(false);
    }
    simulator.settleRefunds(id);
    expect((await send('GET', `/v1/payments/${id}`)).body).toMatchObject({ status: 'approved', status_detail: 'partially_refunded', transaction_amount_refunded: 20, refunds: [{ status: 'approved' }] });
    expect((await send('POST', `/v1/payments/${id}/refunds`, {})).body).toMatchObject({ amount: 30, status: 'approved' });
  });

  it('posts each notification to the application’s webhook URL after the answer, with data.id and type in its query', async () => {
    const received: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(received.length === 1 ? 200 : 500).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    const posting = await startMercadoPagoSimulator({ clock: () => now, accounts: [{ accessToken: TOKEN, webhookSecret: SECRET, webhookUrl: `http://127.0.0.1:${port}/v1/provider-notifications/abc?source_news=webhooks` }] });
    try {
      const answer = await fetch(`${posting.url}/v1/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-idempotency-key': 'pix-1' },
        body: JSON.stringify({ transaction_amount: 7, payment_method_id: 'pix', payer: { email: 'payer@example.com' } }),
      });
      const created = (await answer.json()) as { id: number };
      posting.payPix(created.id);
      await posting.delivered();
      expect(received.map((r) => new URL(r.url, 'http://x').searchParams.get('data.id'))).toEqual([String(created.id), String(created.id)]);
      expect(new URL(received[0]!.url, 'http://x').searchParams.get('source_news')).toBe('webhooks');
      expect(new URL(received[0]!.url, 'http://x').searchParams.get('type')).toBe('payment');
      expect(JSON.parse(received[1]!.body)).toMatchObject({ action: 'payment.updated', data: { id: String(created.id) } });
      expect(received[1]!.headers['x-signature']).toMatch(/^ts=\d+,v1=[0-9a-f]{64}$/);
      expect(posting.deliveries.map((d) => [d.notification.body.action, d.status])).toEqual([
        ['payment.created', 200],
        ['payment.updated', 500],
      ]);
    } finally {
      await posting.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
