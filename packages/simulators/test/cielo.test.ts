import { brCodeValid, dynamicPixCode, parseBrCode, startCieloSimulator, type CieloNotification, type CieloSimulator, type CieloSimulatorOptions } from '../src/cielo';
import { brCodeValid as exportedBrCodeValid } from '../src';

const MERCHANT = { merchantId: '5bf5b74b-2f4b-4738-92cd-dba738ab058a', merchantKey: 'JVFMTZCHFMYKJNSAPXMOUMJTQLDKWFOVKISZXOLK' };
const OTHER = { merchantId: 'a2133427-a0f8-4fe8-b605-6469161e7711', merchantKey: 'XUMUBMGQBPNUAYIESMSHTCNLVTNEXIDPHXQRZYOC' };
const T0 = new Date('2026-03-10T15:00:00Z');

interface Reply {
  status: number;
  text: string;
  json: unknown;
}

let sim: CieloSimulator;
let now: Date;
let coin: number;
const notifications: CieloNotification[] = [];

async function start(extra: Partial<CieloSimulatorOptions> = {}): Promise<CieloSimulator> {
  return startCieloSimulator({ merchants: [MERCHANT, OTHER], clock: () => now, random: () => coin, notify: (n) => void notifications.push(n), ...extra });
}

beforeEach(async () => {
  now = T0;
  coin = 0.1;
  notifications.length = 0;
  sim = await start();
});

afterEach(() => sim.close());

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, merchant = MERCHANT): Promise<Reply> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', MerchantId: merchant.merchantId, MerchantKey: merchant.merchantKey, ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

function creditSale(cardNumber: string, extra: Record<string, unknown> = {}) {
  return {
    MerchantOrderId: '2014111701',
    Customer: { Name: 'Comprador Teste' },
    Payment: {
      Type: 'CreditCard',
      Amount: 15700,
      Installments: 1,
      Capture: false,
      CreditCard: { CardNumber: cardNumber, Holder: 'Teste Holder', ExpirationDate: '12/2030', SecurityCode: '123', Brand: 'Visa' },
      ...extra,
    },
  };
}

type Payment = Record<string, unknown> & { PaymentId: string; Status: number; ReturnCode: string };

async function authorize(cardNumber: string, extra: Record<string, unknown> = {}): Promise<Payment> {
  const reply = await call('POST', '/1/sales/', creditSale(cardNumber, extra));
  expect(reply.status).toBe(201);
  return (reply.json as { Payment: Payment }).Payment;
}

describe('Cielo simulator: Simulado (the card number\'s last digit)', () => {
  it.each([
    ['0000000000000000', 1, '4'],
    ['0000000000000001', 1, '4'],
    ['0000000000000004', 1, '4'],
    ['0000000000000002', 3, '05'],
    ['0000000000000003', 3, '57'],
    ['0000000000000005', 3, '78'],
    ['0000000000000006', 3, '99'],
    ['0000000000000007', 3, '77'],
    ['0000000000000008', 3, '70'],
  ])('card %s: Status %d, ReturnCode %s', async (card, status, code) => {
    const payment = await authorize(card);
    expect(payment.Status).toBe(status);
    expect(payment.ReturnCode).toBe(code);
    expect(payment.PaymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect((payment.CreditCard as { CardNumber: string }).CardNumber).toBe(`${card.slice(0, 6)}******${card.slice(-4)}`);
  });

  it('a card ending 9 is authorized or times out by the coin', async () => {
    coin = 0.2;
    expect((await authorize('4024007153763199')).Status).toBe(1);
    coin = 0.8;
    const timedOut = await authorize('4024007153763199');
    expect([timedOut.Status, timedOut.ReturnCode, timedOut.ReturnMessage]).toEqual([3, '99', 'Time Out']);
  });

  it('an authorization captured at once answers PaymentConfirmed with ReturnCode 6 and the captured amount', async () => {
    const payment = await authorize('4024007153763191', { Capture: true });
    expect([payment.Status, payment.ReturnCode, payment.CapturedAmount]).toEqual([2, '6', 15700]);
    expect(payment.ReceivedDate).toBe('2026-03-10 12:00:00');
  });

  it('a debit is captured in its authorization', async () => {
    const reply = await call('POST', '/1/sales/', {
      MerchantOrderId: '2014121201',
      Customer: { Name: 'Comprador' },
      Payment: { Type: 'DebitCard', Authenticate: false, Amount: 500, DebitCard: { CardNumber: '5551870000000181', Holder: 'Teste Holder', ExpirationDate: '12/2030', SecurityCode: '123', Brand: 'Master' } },
    });
    const payment = (reply.json as { Payment: Payment }).Payment;
    expect([reply.status, payment.Status, payment.Type, payment.CapturedAmount]).toEqual([201, 2, 'DebitCard', 500]);
  });
});

describe('Cielo simulator: credentials and validation', () => {
  it('answers 401 without a body to an unknown MerchantId or a wrong MerchantKey', async () => {
    const wrongKey = await call('POST', '/1/sales/', creditSale('0000000000000001'), {}, { ...MERCHANT, merchantKey: 'X'.repeat(40) });
    const unknown = await call('GET', '/1/sales/24bc8366-fc31-4d6c-8555-17049a836a07', undefined, {}, { merchantId: '00000000-0000-0000-0000-000000000000', merchantKey: MERCHANT.merchantKey });
    expect([wrongKey.status, wrongKey.text]).toEqual([401, '']);
    expect([unknown.status, unknown.text]).toEqual([401, '']);
    expect(sim.salesCreated).toBe(0);
  });

  it.each([
    [122, { ...creditSale('0000000000000001'), MerchantOrderId: undefined }],
    [119, { MerchantOrderId: '1', Customer: { Name: 'x' } }],
    [108, creditSale('0000000000000001', { Amount: 0 })],
    [108, creditSale('0000000000000001', { Amount: 10.5 })],
    [126, creditSale('0000000000000001', { CreditCard: { CardNumber: '0000000000000001', Holder: 'H', ExpirationDate: '13/2030', Brand: 'Visa' } })],
    [185, creditSale('0000000000000001', { CreditCard: { CardNumber: '0000000000000001', Holder: 'H', ExpirationDate: '12/2030', Brand: 'Nope' } })],
    [182, creditSale('0000000000000001', { CreditCard: { CardNumber: '0000000000000001', Holder: 'H', ExpirationDate: '12/2030' } })],
    [123, creditSale('0000000000000001', { Installments: 0 })],
    [173, creditSale('0000000000000001', { Type: 'Boleto' })],
  ])('answers the manual\'s API error %d', async (code, body) => {
    const reply = await call('POST', '/1/sales/', body);
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual([{ Code: code, Message: expect.any(String) }]);
  });

  it('answers 184 to a body that is not JSON', async () => {
    const reply = await call('POST', '/1/sales/', '{not json');
    expect([reply.status, reply.json]).toEqual([400, [{ Code: 184, Message: 'Request could not be empty' }]]);
  });
});

describe('Cielo simulator: capture, void and query', () => {
  it('captures part of an authorization once', async () => {
    const { PaymentId } = await authorize('0000000000000001');
    const over = await call('PUT', `/1/sales/${PaymentId}/capture?amount=20000`);
    expect([over.status, over.json]).toEqual([400, [{ Code: 308, Message: 'Transaction not available to capture' }]]);
    const captured = await call('PUT', `/1/sales/${PaymentId}/capture?amount=10000`);
    expect(captured.status).toBe(200);
    expect(captured.json).toMatchObject({ Status: 2, ReturnCode: '6' });
    const again = await call('PUT', `/1/sales/${PaymentId}/capture`);
    expect([again.status, again.json]).toEqual([400, [{ Code: 308, Message: 'Transaction not available to capture' }]]);
    const query = await call('GET', `/1/sales/${PaymentId}`);
    expect((query.json as { Payment: Payment }).Payment).toMatchObject({ Status: 2, Amount: 15700, CapturedAmount: 10000 });
  });

  it('voids an authorization whole, and only whole', async () => {
    const { PaymentId } = await authorize('0000000000000001');
    const partial = await call('PUT', `/1/sales/${PaymentId}/void?amount=100`);
    expect(partial.status).toBe(400);
    const whole = await call('PUT', `/1/sales/${PaymentId}/void`);
    expect(whole.json).toMatchObject({ Status: 10, ReturnCode: '9' });
    const again = await call('PUT', `/1/sales/${PaymentId}/void`);
    expect([again.status, again.json]).toEqual([400, [{ Code: 309, Message: 'Transaction not available to void' }]]);
  });

  it('refunds a capture in parts up to what was captured; the last part the next day is Refunded', async () => {
    const { PaymentId } = await authorize('0000000000000001', { Capture: true });
    const first = await call('PUT', `/1/sales/${PaymentId}/void?amount=5000`);
    expect(first.json).toMatchObject({ Status: 2, ReturnCode: '0', ReasonCode: 0 });
    const above = await call('PUT', `/1/sales/${PaymentId}/void?amount=20000`);
    expect(above.json).toMatchObject({ Status: 2, ReturnCode: '51' });
    now = new Date(T0.getTime() + 24 * 3600_000);
    const rest = await call('PUT', `/1/sales/${PaymentId}/void?amount=10700`);
    expect(rest.json).toMatchObject({ Status: 11, ReturnCode: '0' });
    const query = await call('GET', `/1/sales/${PaymentId}`);
    expect((query.json as { Payment: Payment }).Payment).toMatchObject({ Status: 11, CapturedAmount: 15700, VoidedAmount: 15700, VoidedDate: '2026-03-11 12:00:00' });
  });

  it('a whole void of a capture on the same day is Voided', async () => {
    const { PaymentId } = await authorize('0000000000000001', { Capture: true });
    expect((await call('PUT', `/1/sales/${PaymentId}/void`)).json).toMatchObject({ Status: 10, ReturnCode: '9' });
  });

  it('does not show, capture or void another merchant\'s sale', async () => {
    const { PaymentId } = await authorize('0000000000000001');
    expect((await call('GET', `/1/sales/${PaymentId}`, undefined, {}, OTHER)).status).toBe(404);
    expect((await call('PUT', `/1/sales/${PaymentId}/capture`, undefined, {}, OTHER)).json).toEqual([{ Code: 307, Message: 'Transaction not found' }]);
    expect(sim.sale(PaymentId)?.status).toBe(1);
  });
});

describe('Cielo simulator: RequestId', () => {
  it('answers a repeated RequestId with its first answer, creating one sale', async () => {
    const headers = { RequestId: '3f1c8a52-5c1d-4e63-9d0a-6a4c1f0e2b11' };
    const first = await call('POST', '/1/sales/', creditSale('0000000000000001'), headers);
    const second = await call('POST', '/1/sales/', creditSale('0000000000000001'), headers);
    expect(second.json).toEqual(first.json);
    expect(sim.salesCreated).toBe(1);
    const other = await call('POST', '/1/sales/', creditSale('0000000000000001'), { RequestId: 'c0b6d6a4-8f0e-4a43-9a37-0f5c7f1f6a22' });
    expect((other.json as { Payment: Payment }).Payment.PaymentId).not.toBe((first.json as { Payment: Payment }).Payment.PaymentId);
    expect(sim.salesCreated).toBe(2);
  });
});

describe('Cielo simulator: Pix', () => {
  const pixSale = { MerchantOrderId: '2020102601', Customer: { Name: 'Nome do Pagador', Identity: '12345678909', IdentityType: 'CPF' }, Payment: { Type: 'Pix', Amount: 12345 } };

  it('the CRC of the manual\'s own QrCodeString example is what brCodeValid checks', () => {
    const example =
      '00020101021226880014br.gov.bcb.pix2566qrcodes-h.cielo.com.br/pix-qr/d05b1a34-ec52-4201-ba1e-d3cc2a43162552040000530398654041.005802BR5918Merchant Teste HML6009Sao Paulo62120508000101296304031C';
    expect(brCodeValid(example)).toBe(true);
    expect(brCodeValid(example.slice(0, -1) + 'D')).toBe(false);
    expect(exportedBrCodeValid).toBe(brCodeValid);
  });

  it('answers Pending with a valid BR Code for the amount, and payPix confirms it and notifies', async () => {
    const reply = await call('POST', '/1/sales/', pixSale);
    const payment = (reply.json as { Payment: Payment & { QrCodeString: string } }).Payment;
    expect([reply.status, payment.Status, payment.ReturnCode, payment.ReturnMessage]).toEqual([201, 12, '0', 'Pix gerado com sucesso']);
    expect(brCodeValid(payment.QrCodeString)).toBe(true);
    const fields = Object.fromEntries((parseBrCode(payment.QrCodeString) ?? []).map((f) => [f.id, f.value]));
    expect(fields['54']).toBe('123.45');
    expect(fields['53']).toBe('986');
    expect(fields['26']).toContain('br.gov.bcb.pix');
    await sim.payPix(payment.PaymentId);
    expect(notifications).toEqual([{ PaymentId: payment.PaymentId, ChangeType: 1 }]);
    const query = await call('GET', `/1/sales/${payment.PaymentId}`);
    expect((query.json as { Payment: Payment }).Payment).toMatchObject({ Status: 2, CapturedAmount: 12345 });
    await expect(sim.payPix(payment.PaymentId)).rejects.toThrow('not pending');
  });

  it('requires the payer, refuses a capture and expires after two hours', async () => {
    const noIdentity = await call('POST', '/1/sales/', { ...pixSale, Customer: { Name: 'Nome' } });
    expect(noIdentity.json).toEqual([{ Code: 104, Message: 'Customer Identity is required' }]);
    const payment = ((await call('POST', '/1/sales/', pixSale)).json as { Payment: Payment }).Payment;
    expect((await call('PUT', `/1/sales/${payment.PaymentId}/capture`)).json).toEqual([{ Code: 310, Message: 'Payment method doest not support this operation' }]);
    now = new Date(T0.getTime() + 2 * 3600_000 + 1000);
    await expect(sim.payPix(payment.PaymentId)).rejects.toThrow('expired');
  });

  it('a paid Pix is refunded as the manual answers it, with a notification', async () => {
    const payment = ((await call('POST', '/1/sales/', pixSale)).json as { Payment: Payment }).Payment;
    await sim.payPix(payment.PaymentId);
    const refund = await call('PUT', `/1/sales/${payment.PaymentId}/void?amount=12345`);
    expect(refund.json).toMatchObject({ Status: 12, ReasonCode: 0, ReturnCode: '0', ReturnMessage: 'Reembolso solicitado com sucesso' });
    expect(sim.sale(payment.PaymentId)?.status).toBe(11);
    expect(notifications).toHaveLength(2);
  });

  it('builds BR Codes that parse field by field', () => {
    const code = dynamicPixCode({ location: 'example.test/qr/1', amountInCents: 5, merchantName: 'Loja São João', merchantCity: 'São Paulo', reference: 'ABC' });
    expect(brCodeValid(code)).toBe(true);
    expect(code).toContain('54040.05');
    expect(code).toContain('5913Loja Sao Joao');
  });
});

describe('Cielo simulator: Braspag gateway (/v2)', () => {
  it('requires Payment.Provider and answers ProviderReturnCode', async () => {
    const none = await call('POST', '/v2/sales/', creditSale('0000000000000001'));
    expect(none.json).toEqual([{ Code: 133, Message: 'Provider is not supported for this Payment Type' }]);
    const reply = await call('POST', '/v2/sales/', creditSale('0000000000000002', { Provider: 'Simulado' }));
    const payment = (reply.json as { Payment: Record<string, unknown> }).Payment;
    expect(payment).toMatchObject({ Status: 3, ProviderReturnCode: '05', ReasonCode: 7, ReasonMessage: 'Denied', Provider: 'Simulado' });
    expect(payment.ReturnCode).toBeUndefined();
    expect(JSON.stringify(payment.Links)).toContain('/v2/sales/');
  });
});

describe('Cielo simulator: latency', () => {
  it('holds every answer for latencyMs: a caller that gives up first creates no sale', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    await sim.close();
    sim = await start({ latencyMs: 60_000, onRequest: () => arrived() });
    const controller = new AbortController();
    const pending = fetch(`${sim.url}/1/sales/`, {
      method: 'POST',
      headers: { MerchantId: MERCHANT.merchantId, MerchantKey: MERCHANT.merchantKey },
      body: JSON.stringify(creditSale('0000000000000001')),
      signal: controller.signal,
    });
    await arrival;
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(sim.salesCreated).toBe(0);
  });
});

describe('Cielo simulator: notifications to a URL', () => {
  it('posts the notification with the registered headers', async () => {
    const received: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
    const { createServer } = await import('node:http');
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const port = (receiver.address() as { port: number }).port;
    await sim.close();
    sim = await startCieloSimulator({ merchants: [MERCHANT], clock: () => now, notificationUrl: `http://127.0.0.1:${port}/hook`, notificationHeaders: { 'x-cielo-key': 'static-value' } });
    const payment = ((await call('POST', '/1/sales/', { MerchantOrderId: '1', Customer: { Name: 'N', Identity: '12345678909' }, Payment: { Type: 'Pix', Amount: 100 } })).json as { Payment: Payment }).Payment;
    await sim.payPix(payment.PaymentId);
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual({ PaymentId: payment.PaymentId, ChangeType: 1 });
    expect(received[0]!.headers['x-cielo-key']).toBe('static-value');
  });

  it('a refund whose notification cannot be delivered is still answered and done', async () => {
    const receiver = (await import('node:http')).createServer((_req, res) => res.end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const port = (receiver.address() as { port: number }).port;
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await sim.close();
    sim = await startCieloSimulator({ merchants: [MERCHANT], clock: () => now, notificationUrl: `http://127.0.0.1:${port}/gone` });
    const payment = ((await call('POST', '/1/sales/', { MerchantOrderId: '1', Customer: { Name: 'N', Identity: '12345678909' }, Payment: { Type: 'Pix', Amount: 100 } })).json as { Payment: Payment }).Payment;
    await expect(sim.payPix(payment.PaymentId)).rejects.toThrow();
    expect(sim.sale(payment.PaymentId)?.status).toBe(2);
    const refund = await call('PUT', `/1/sales/${payment.PaymentId}/void`);
    expect(refund.json).toMatchObject({ ReturnCode: '0' });
    expect(sim.sale(payment.PaymentId)?.status).toBe(11);
  });
});
