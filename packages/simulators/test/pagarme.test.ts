import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brCodeValid } from '../src/cielo';
import { PAGARME_UNAUTHORIZED, startPagarmeSimulator, type PagarmeHook, type PagarmeSimulator } from '../src/pagarme';

const KEY = 'sk_test_4f1c2a9e8b7d6c5a';
const OTHER_KEY = 'sk_test_0a9b8c7d6e5f4a3b';

describe('Pagar.me simulator', () => {
  let simulator: PagarmeSimulator;
  let now = new Date('2026-11-10T15:00:00Z');
  const hooks: PagarmeHook[] = [];
  let keys = 0;

  beforeAll(async () => {
    simulator = await startPagarmeSimulator({
      clock: () => now,
      accounts: [{ secretKey: KEY, id: 'acc_test', name: 'Loja Teste' }, { secretKey: OTHER_KEY }],
      settleAfterMs: 5_000,
      notify: (hook) => void hooks.push(hook),
    });
  });
  afterAll(() => simulator.close());

  const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  const send = async (method: string, path: string, body?: unknown, options: { key?: string; idempotencyKey?: string } = {}) => {
    const answer = await fetch(`${simulator.apiUrl}${path}`, {
      method,
      headers: {
        authorization: basic(options.key ?? KEY),
        ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const customer = { name: 'Maria Souza', email: 'maria@example.test', document: '11144477735', type: 'individual' };
  const order = (payment: Record<string, unknown>, amount = 1500, extra: Record<string, unknown> = {}) => ({
    code: `order-${++keys}`,
    closed: true,
    items: [{ amount, description: 'Pedido', quantity: 1, code: 'item-1' }],
    customer,
    payments: [payment],
    ...extra,
  });
  const card = (number: string, capture = true) => ({
    payment_method: 'credit_card',
    credit_card: { installments: 1, capture, statement_descriptor: 'LOJA', card: { number, holder_name: 'Maria Souza', exp_month: 12, exp_year: 2030, cvv: '123' } },
  });
  const chargeOf = (body: Record<string, unknown>) => (body.charges as Array<Record<string, unknown>>)[0]!;

  it('answers 401 with its message to a request without the account secret key', async () => {
    const answer = await fetch(`${simulator.apiUrl}/orders`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual(PAGARME_UNAUTHORIZED);
    expect((await send('POST', '/orders', order(card('4000000000000010')), { key: 'sk_test_wrongwrongwrong' })).status).toBe(401);
  });

  it('pays the success card at once and holds it when capture is false, then captures part and refunds in parts', async () => {
    const paid = await send('POST', '/orders', order(card('4000000000000010')));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', amount: 1500, closed: true });
    expect(chargeOf(paid.body)).toMatchObject({ status: 'paid', paid_amount: 1500, payment_method: 'credit_card', last_transaction: { status: 'captured', acquirer_return_code: '0000' } });
    expect(JSON.stringify(paid.body)).not.toContain('4000000000000010');

    const held = await send('POST', '/orders', order(card('4000000000000010', false), 2000));
    const charge = chargeOf(held.body);
    expect(charge).toMatchObject({ status: 'pending', last_transaction: { status: 'authorized_pending_capture', operation_type: 'auth_only' } });
    const id = String(charge.id);
    expect((await send('POST', `/charges/${id}/capture`, { amount: 2001 })).status).toBe(412);
    const captured = await send('POST', `/charges/${id}/capture`, { amount: 1200 });
    expect(captured.body).toMatchObject({ status: 'paid', paid_amount: 1200, last_transaction: { status: 'captured' } });
    expect((await send('POST', `/charges/${id}/capture`, { amount: 100 })).status).toBe(412);

    const part = await send('DELETE', `/charges/${id}`, { amount: 500 });
    expect(part.body).toMatchObject({ status: 'paid', canceled_amount: 500, last_transaction: { status: 'partial_refunded' } });
    expect((await send('DELETE', `/charges/${id}`, { amount: 701 })).status).toBe(412);
    const rest = await send('DELETE', `/charges/${id}`, { amount: 700 });
    expect(rest.body).toMatchObject({ status: 'canceled', canceled_amount: 1200, last_transaction: { status: 'refunded' } });
    expect((await send('DELETE', `/charges/${id}`, { amount: 1 })).status).toBe(412);
    expect(hooks.filter((h) => (h.data as { id?: string }).id === id).map((h) => h.type)).toEqual(['charge.paid', 'charge.partial_canceled', 'charge.refunded']);
  });

  it('refuses the failure card, and any other, with the ABECS generic code', async () => {
    for (const number of ['4000000000000028', '4111111111111111']) {
      const answer = await send('POST', '/orders', order(card(number)));
      expect(answer.body).toMatchObject({ status: 'failed' });
      expect(chargeOf(answer.body)).toMatchObject({ status: 'failed', last_transaction: { status: 'not_authorized', success: false, acquirer_return_code: '05' } });
    }
  });

  it('leaves the processing cards processing until the acquirer answers: then paid, or failed', async () => {
    const good = chargeOf((await send('POST', '/orders', order(card('4000000000000036')))).body);
    const bad = chargeOf((await send('POST', '/orders', order(card('4000000000000044')))).body);
    expect(good).toMatchObject({ status: 'processing', last_transaction: { status: 'with_error' } });
    expect(bad).toMatchObject({ status: 'processing' });
    now = new Date(now.getTime() + 4_999);
    expect((await send('GET', `/charges/${String(good.id)}`)).body).toMatchObject({ status: 'processing' });
    now = new Date(now.getTime() + 1);
    expect((await send('GET', `/charges/${String(good.id)}`)).body).toMatchObject({ status: 'paid', paid_amount: 1500, last_transaction: { status: 'captured' } });
    expect((await send('GET', `/charges/${String(bad.id)}`)).body).toMatchObject({ status: 'failed', last_transaction: { status: 'failed' } });
    await simulator.settle();
    expect(hooks.find((h) => (h.data as { id?: string }).id === bad.id)?.type).toBe('charge.payment_failed');
  });

  it('creates a Pix pending with its QR code and pays it seconds later; above R$ 500,00 it fails', async () => {
    const pix = chargeOf((await send('POST', '/orders', order({ payment_method: 'pix', pix: { expires_in: 3600 } }, 50_000))).body);
    expect(pix).toMatchObject({ status: 'pending', payment_method: 'pix', last_transaction: { status: 'waiting_payment', expires_at: '2026-11-10T16:00:05Z' } });
    expect(brCodeValid(String((pix.last_transaction as { qr_code: string }).qr_code))).toBe(true);
    await simulator.settle(String(pix.id));
    expect(simulator.charge(String(pix.id))).toMatchObject({ status: 'paid', paid_amount: 50_000 });
    expect(hooks.at(-1)).toMatchObject({ type: 'charge.paid', account: { id: 'acc_test', name: 'Loja Teste' }, data: { id: pix.id } });
    expect(hooks.at(-1)!.id).toMatch(/^hook_/);

    const failed = chargeOf((await send('POST', '/orders', order({ payment_method: 'pix', pix: { expires_in: 3600 } }, 50_001))).body);
    expect(failed).toMatchObject({ status: 'failed' });
  });

  it('requires the customer and its document for Pix, in its validation error shape', async () => {
    const answer = await send('POST', '/orders', order({ payment_method: 'pix', pix: { expires_in: 60 } }, 1000, { customer: { name: '' } }));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      message: 'The request is invalid.',
      errors: { 'order.customer.name': ['The name field is required.'], 'order.customer.document': ['The document field is required.'] },
    });
    const bad = await send('POST', '/orders', order(card('4000000000000011')));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors as object)).toEqual(['order.payments[0].credit_card.card.number']);
  });

  it('generates a boleto with a valid digitable line and conciliates it by the buyer CEP', async () => {
    const boleto = (zip: string) => order({ payment_method: 'boleto', boleto: { due_at: '2026-11-20T00:00:00Z', instructions: 'Não receber após o vencimento' } }, 1500, { customer: { ...customer, address: { zip_code: zip } } });
    const full = chargeOf((await send('POST', '/orders', boleto('01311000'))).body);
    const less = chargeOf((await send('POST', '/orders', boleto('01046010'))).body);
    const more = chargeOf((await send('POST', '/orders', boleto('57400000'))).body);
    const never = chargeOf((await send('POST', '/orders', boleto('70070300'))).body);
    const line = String((full.last_transaction as { line: string }).line);
    expect(line).toMatch(/^\d{47}$/);
    expect(line.slice(37)).toBe('0000001500');
    expect(full).toMatchObject({ status: 'pending', last_transaction: { status: 'generated', due_at: '2026-11-20T00:00:00Z' } });
    await simulator.settle();
    expect(simulator.charge(String(full.id))).toMatchObject({ status: 'paid', paid_amount: 1500 });
    expect(simulator.charge(String(less.id))).toMatchObject({ status: 'underpaid', paid_amount: 1400 });
    expect(simulator.charge(String(more.id))).toMatchObject({ status: 'overpaid', paid_amount: 1600 });
    expect(simulator.charge(String(never.id))).toMatchObject({ status: 'pending' });
    const refund = await send('DELETE', `/charges/${String(full.id)}`, { amount: 100 });
    expect(refund.status).toBe(422);
    expect(refund.body.errors).toEqual({ bank_account: ['The bank_account field is required.'] });
    const canceled = await send('DELETE', `/charges/${String(never.id)}`, {});
    expect(canceled.body).toMatchObject({ status: 'canceled' });
  });

  it('answers a repeated Idempotency-Key with the first answer and creates nothing', async () => {
    const before = simulator.ordersCreated;
    const first = await send('POST', '/orders', order(card('4000000000000010')), { idempotencyKey: 'same-key' });
    const again = await send('POST', '/orders', order(card('4000000000000010')), { idempotencyKey: 'same-key' });
    expect(again.body).toEqual(first.body);
    expect(simulator.ordersCreated).toBe(before + 1);
    const other = await send('POST', '/orders', order(card('4000000000000010')), { idempotencyKey: 'same-key', key: OTHER_KEY });
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('keeps each account to its own charges', async () => {
    const charge = chargeOf((await send('POST', '/orders', order(card('4000000000000010')))).body);
    expect((await send('GET', `/charges/${String(charge.id)}`, undefined, { key: OTHER_KEY })).status).toBe(404);
    expect((await send('GET', '/charges/ch_unknown')).body).toEqual({ message: 'Charge not found.' });
  });

  it('posts hooks to the webhook URL with its Basic credentials', async () => {
    const received: Array<{ authorization?: string; body: PagarmeHook }> = [];
    const endpoint = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString()) as PagarmeHook });
        res.end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const port = (endpoint.address() as AddressInfo).port;
    const posting = await startPagarmeSimulator({
      clock: () => now,
      accounts: [{ secretKey: KEY }],
      webhookUrl: `http://127.0.0.1:${port}/hooks`,
      webhookAuth: { user: 'platform', password: 'hook-secret' },
    });
    try {
      const answer = await fetch(`${posting.apiUrl}/orders`, {
        method: 'POST',
        headers: { authorization: basic(KEY), 'content-type': 'application/json' },
        body: JSON.stringify(order({ payment_method: 'pix', pix: { expires_in: 600 } })),
      });
      const id = String(chargeOf((await answer.json()) as Record<string, unknown>).id);
      await posting.settle(id);
      expect(received).toHaveLength(1);
      expect(received[0]!.authorization).toBe(`Basic ${Buffer.from('platform:hook-secret').toString('base64')}`);
      expect(received[0]!.body).toMatchObject({ type: 'charge.paid', data: { id, status: 'paid' } });
    } finally {
      await posting.close();
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });
});
