import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPixSimulator, testTls, type PixExchange, type PixSimulatorOptions, type PixSimulatorProfile, type RunningPixSimulator } from '@platform/simulators';
import { ProviderUnavailableError, type AuthorizeRequest, type ProviderCall } from '../../../src/modules/connectors/domain/types';
import { createHttpClient, forgetTrustedAuthorities } from '../../../src/modules/connectors/kit/http';
import { brCodeProblems, crc16 } from '../../../src/modules/connectors/pix/brcode';
import { PixProvider, pixEndpoints, webhookUrlFor } from '../../../src/modules/connectors/pix/connector';
import { PIX_PROFILES } from '../../../src/modules/connectors/pix/profiles';
import { pixCredentials, type PixType } from '../../../src/modules/connectors/pix/credentials';
import { failureOf } from '../../../src/modules/connectors/pix/errors';
import { pixNotifications } from '../../../src/modules/connectors/pix/notifications';
import { parseCob, toAuthorizeResult, toCobRequest } from '../../../src/modules/connectors/pix/transformers';
import { check, requestSchema, responseSchema, WEBHOOK_PIX_BODY } from './openapi';

const tls = testTls();
const KEY = 'recebedor@example.com';
const ACCOUNT = { clientId: 'Client_Id_3b0c5f', clientSecret: 'Client_Secret_9f1e27d4', pixKeys: [KEY], developerKey: 'bb-dev-app-key-01' };

const TYPES: Record<PixSimulatorProfile, PixType> = { EFI: 'PIX_EFI', ITAU: 'PIX_ITAU', SANTANDER: 'PIX_SANTANDER', BB: 'PIX_BB' };

interface Bench {
  simulator: RunningPixSimulator;
  provider: PixProvider;
  credentials: Record<string, unknown>;
  clock: { now: Date };
  advance(seconds: number): void;
}

const benches: Bench[] = [];

async function bench(options: Partial<PixSimulatorOptions> = {}, credentials: Record<string, unknown> = {}): Promise<Bench> {
  const clock = { now: new Date('2026-06-01T15:00:00Z') };
  const simulator = await startPixSimulator({ clock: () => clock.now, accounts: [ACCOUNT], ...options });
  const profile = simulator.profile;
  const provider = new PixProvider(
    TYPES[profile],
    { env: { [`PIX_${profile}_API_URL`]: simulator.url, [`PIX_${profile}_TOKEN_URL`]: simulator.tokenUrl }, publicUrl: 'https://platform.example' },
    { now: () => clock.now },
  );
  const made: Bench = {
    simulator,
    provider,
    credentials: { type: TYPES[profile], clientId: ACCOUNT.clientId, clientSecret: ACCOUNT.clientSecret, certificate: tls.clientBundle, pixKey: KEY, developerKey: ACCOUNT.developerKey, ...credentials },
    clock,
    advance: (seconds) => (clock.now = new Date(clock.now.getTime() + seconds * 1000)),
  };
  benches.push(made);
  return made;
}

let calls = 0;
function call(b: Bench, idempotencyKey = `idem-${++calls}`, credentials = b.credentials): ProviderCall {
  return { idempotencyKey, signal: new AbortController().signal, credentials, options: {} };
}

let charges = 0;
function charge(amount: number, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    chargeId: `chg_${String(++charges).padStart(8, '0')}`,
    merchantId: 'mer_pix',
    amount,
    currency: 'BRL',
    capture: true,
    paymentType: 'pix',
    installments: 1,
    statementDescriptor: 'Loja Exemplo pedido 42',
    pix: { expiresIn: 3600 },
    ...overrides,
  };
}

function operation(transactionId: string, amount: number) {
  return { chargeId: 'chg_operation', transactionId, amount, currency: 'BRL' };
}

async function authorized(b: Bench, request: AuthorizeRequest): Promise<string> {
  const result = await b.provider.authorize(request, call(b));
  if (result.status !== 'pending') throw new Error(`expected a pending Pix, got ${JSON.stringify(result)}`);
  return result.transactionId;
}

/** A plain http server that records what is posted to it. */
async function webhookReceiver(): Promise<{ url: string; bodies: Buffer[]; next(): Promise<Buffer>; close(): Promise<void> }> {
  const bodies: Buffer[] = [];
  let waiting: ((body: Buffer) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body);
      res.writeHead(200).end();
      waiting?.(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/provider-notifications/prv_pix`,
    bodies,
    next: () => new Promise<Buffer>((resolve) => (waiting = resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function validateExchanges(exchanges: PixExchange[]): string[] {
  const problems: string[] = [];
  for (const exchange of exchanges) {
    if (exchange.route === '/oauth/token') continue;
    const label = `${exchange.method} ${exchange.route} ${exchange.status}`;
    const request = requestSchema(exchange.route, exchange.method);
    if (request && exchange.requestBody !== undefined) {
      const verdict = check(request, exchange.requestBody);
      if (!verdict.valid) problems.push(`${label} request: ${verdict.errors.join(', ')}`);
    }
    const response = responseSchema(exchange.route, exchange.method, exchange.status);
    if (response === null) {
      if (exchange.responseBody !== undefined) problems.push(`${label}: the document gives this answer no body`);
    } else {
      const verdict = check(response, exchange.responseBody);
      if (!verdict.valid) problems.push(`${label} answer: ${verdict.errors.join(', ')}`);
    }
  }
  return problems;
}

const extraCas = process.env.NODE_EXTRA_CA_CERTS;
beforeAll(() => {
  process.env.NODE_EXTRA_CA_CERTS = tls.caFile;
  forgetTrustedAuthorities();
});
afterAll(() => {
  if (extraCas === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
  else process.env.NODE_EXTRA_CA_CERTS = extraCas;
  forgetTrustedAuthorities();
});

afterEach(async () => {
  for (const b of benches.splice(0)) {
    await b.provider.close();
    await b.simulator.close();
  }
});

describe('BR Code checks', () => {
  it('computes CRC-16/CCITT-FALSE: check value 29B1 for "123456789", FFFF for nothing, and the CRC of the Central Bank manual\'s example', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
    const example = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304';
    expect(crc16(example)).toBe('1D3D');
    expect(brCodeProblems(`${example}1D3D`, { amount: '0.00' })).toEqual([]);
  });

  it('finds a wrong CRC, a changed amount, a missing Pix account, and a field running past the end', () => {
    const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
    const account = field('26', field('00', 'br.gov.bcb.pix') + field('25', 'pix.example.com/qr/1'));
    const head = field('00', '01') + field('01', '12');
    const tail = field('52', '0000') + field('53', '986') + field('54', '10.00') + field('58', 'BR') + field('59', 'LOJA') + field('60', 'SAO PAULO') + field('62', field('05', '***')) + '6304';
    const sound = head + account + tail;
    const code = sound + crc16(sound);
    expect(brCodeProblems(code, { amount: '10.00', location: 'pix.example.com/qr/1' })).toEqual([]);
    expect(brCodeProblems(`${sound}0000`, { amount: '10.00' })).toEqual(['field 63 (CRC16) does not match the payload']);
    expect(brCodeProblems(code, { amount: '11.00' })).toEqual(["field 54 (amount) is not the cob's"]);
    expect(brCodeProblems(code, { amount: '10.00', location: 'pix.example.com/qr/2' })).toEqual(["field 26-25 is not the cob's location"]);
    const noAccount = head + tail;
    expect(brCodeProblems(noAccount + crc16(noAccount), { amount: '10.00' })).toContain('field 26 (Pix merchant account) is missing');
    expect(brCodeProblems('000201260', { amount: '10.00' })[0]).toMatch(/^not a TLV string/);
  });
});

describe('Pix connector against the API Pix simulator (Efí profile)', () => {
  it('creates a cob for the charge: R$ 123.45 as "123.45", the statement descriptor as solicitacaoPagador, a BR Code that checks', async () => {
    const b = await bench();
    const request = charge(12345, { pix: { expiresIn: 900 } });
    const result = await b.provider.authorize(request, call(b));
    expect(result).toEqual({
      status: 'pending',
      transactionId: expect.stringMatching(/^[a-zA-Z0-9]{26,35}$/),
      pix: { qrCodeData: expect.any(String), qrCodeImageUrl: '', expiresAt: new Date(b.clock.now.getTime() + 900_000) },
    });
    if (result.status !== 'pending') return;
    expect(brCodeProblems(result.pix!.qrCodeData, { amount: '123.45' })).toEqual([]);
    const put = b.simulator.exchanges.find((e) => e.method === 'PUT' && e.route === '/cob/{txid}');
    expect(put?.requestBody).toEqual({ calendario: { expiracao: 900 }, valor: { original: '123.45' }, chave: KEY, solicitacaoPagador: 'Loja Exemplo pedido 42' });
  });

  it('never hands out a BR Code that does not check: the bank counts as failing and the charge moves on', async () => {
    const b = await bench();
    const request = charge(7500);
    await authorized(b, request);
    const answer = b.simulator.exchanges.find((e) => e.method === 'PUT' && e.status === 201)!.responseBody as { pixCopiaECola: string };
    const expected = toCobRequest(request, KEY);
    expect(toAuthorizeResult(parseCob(answer), expected).status).toBe('pending');
    const tampered = { ...answer, pixCopiaECola: answer.pixCopiaECola.replace('540575.00', '540575.01') };
    expect(() => toAuthorizeResult(parseCob(tampered), expected)).toThrow(ProviderUnavailableError);
    const badCrc = { ...answer, pixCopiaECola: `${answer.pixCopiaECola.slice(0, -4)}0000` };
    expect(() => toAuthorizeResult(parseCob(badCrc), expected)).toThrow('field 63 (CRC16) does not match the payload');
  });

  it('creates one cob for the same charge and idempotency key asked twice, and answers the same both times', async () => {
    const b = await bench();
    const request = charge(5000);
    const first = await b.provider.authorize(request, call(b, 'idem-same'));
    const second = await b.provider.authorize(request, call(b, 'idem-same'));
    expect(second).toEqual(first);
    const created = b.simulator.exchanges.filter((e) => e.method === 'PUT' && e.route === '/cob/{txid}' && e.status === 201);
    expect(created).toHaveLength(1);
  });

  it('keeps its token and asks for a new one before it expires (by the injected clock), one request at a time', async () => {
    const b = await bench({ tokenLifetimeSeconds: 300 });
    const txid = await authorized(b, charge(2500));
    const ask = () => b.provider.query({ chargeId: 'c', transactionId: txid, paymentType: 'pix', amount: 2500, currency: 'BRL', now: b.clock.now }, call(b));
    await Promise.all([ask(), ask(), ask()]);
    expect(b.simulator.tokensIssued()).toBe(1);
    b.advance(200);
    await ask();
    expect(b.simulator.tokensIssued()).toBe(1);
    // 250 s into a 300 s token: still valid at the bank, but within the minute it is refreshed early.
    b.advance(50);
    await Promise.all([ask(), ask()]);
    expect(b.simulator.tokensIssued()).toBe(2);
  });

  it('refuses to talk without the client certificate, or with one its CA never signed: the bank closes the connection', async () => {
    const b = await bench();
    const bare = createHttpClient({ baseUrl: b.simulator.url });
    try {
      // TLS 1.3 refuses the certificate after the client may have sent its request: to the client, a closed socket.
      await expect(bare.send({ method: 'GET', path: '/cob/abcdefghijklmnopqrstuvwxyz' })).rejects.toThrow(/failed: SocketError/);
    } finally {
      await bare.close();
    }
    // A certificate the bank's CA never signed is refused the same way: a technical failure, the charge moves on.
    await expect(b.provider.authorize(charge(1500), call(b, 'idem-stranger', { ...b.credentials, certificate: tls.strangerBundle }))).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(b.simulator.tokensIssued()).toBe(0);
  });

  it('declines invalid_merchant on wrong client credentials, final and without the secret in the message', async () => {
    const b = await bench();
    const result = await b.provider.authorize(charge(1500), call(b, 'idem-bad', { ...b.credentials, clientSecret: 'not-the-secret-xyz' }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
    expect(JSON.stringify(result)).not.toContain('not-the-secret-xyz');
    expect(b.simulator.exchanges.some((e) => e.route === '/cob/{txid}')).toBe(false);
    const malformed = await b.provider.authorize(charge(1500), call(b, 'idem-malformed', { type: 'PIX_EFI', clientId: 'x' }));
    expect(malformed).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
  });

  it('takes the certificate as PKCS#12 in base64 with its passphrase', async () => {
    const b = await bench({}, { certificate: tls.clientPkcs12.toString('base64'), certificatePassphrase: tls.clientPassphrase });
    expect((await b.provider.authorize(charge(4321), call(b))).status).toBe('pending');
  });

  it('sees a cob of up to R$ 10.00 paid at once: the webhook arrives, names the txid, and the query says authorized', async () => {
    const b = await bench();
    const receiver = await webhookReceiver();
    try {
      await b.provider.registerWebhook(b.credentials, receiver.url);
      const arrived = receiver.next();
      const txid = await authorized(b, charge(1000));
      const body = await arrived;
      const reading = pixNotifications.read({ headers: { 'content-type': 'application/json' }, rawBody: body, query: {} }, b.credentials);
      expect(reading).toEqual({ transactions: [{ transactionId: txid }], reply: { status: 200 } });
      const state = await b.provider.query({ chargeId: 'c', transactionId: txid, paymentType: 'pix', amount: 1000, currency: 'BRL', now: b.clock.now }, call(b));
      expect(state).toEqual({ found: true, status: 'authorized', providerStatus: 'CONCLUIDA', capturedAmount: 1000 });
    } finally {
      await receiver.close();
    }
  });

  it('keeps a larger cob pending until paid, and calls it canceled once calendario.criacao + expiracao has passed', async () => {
    const b = await bench();
    const txid = await authorized(b, charge(1001, { pix: { expiresIn: 60 } }));
    const query = () => b.provider.query({ chargeId: 'c', transactionId: txid, paymentType: 'pix', amount: 1001, currency: 'BRL', now: b.clock.now }, call(b));
    expect(await query()).toEqual({ found: true, status: 'pending', providerStatus: 'ATIVA' });
    b.advance(59);
    expect((await query()).status).toBe('pending');
    b.advance(1);
    expect(await query()).toEqual({ found: true, status: 'canceled', providerStatus: 'ATIVA (expirada)' });
    expect(await b.provider.query({ chargeId: 'c', transactionId: 'abcdefghijklmnopqrstuvwxyz0123', paymentType: 'pix', amount: 1, currency: 'BRL', now: b.clock.now }, call(b))).toEqual({ found: false });
  });

  it('removes an unpaid cob (cancel), once; a paid one cannot be removed', async () => {
    const b = await bench();
    const unpaid = await authorized(b, charge(2000));
    expect(await b.provider.cancel(operation(unpaid, 2000), call(b))).toEqual({ status: 'success', transactionId: unpaid });
    expect(await b.provider.cancel(operation(unpaid, 2000), call(b))).toEqual({ status: 'success', transactionId: unpaid });
    expect((await b.provider.query({ chargeId: 'c', transactionId: unpaid, paymentType: 'pix', amount: 2000, currency: 'BRL', now: b.clock.now }, call(b))).status).toBe('canceled');
    const paid = await authorized(b, charge(2000));
    await b.simulator.pay(paid);
    expect(await b.provider.cancel(operation(paid, 2000), call(b))).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
  });

  it('refunds part of a paid Pix, the same idempotency key once, then the rest: authorized with the refunded amount, then voided', async () => {
    const b = await bench();
    const txid = await authorized(b, charge(10000));
    await b.simulator.pay(txid);
    const query = () => b.provider.query({ chargeId: 'c', transactionId: txid, paymentType: 'pix', amount: 10000, currency: 'BRL', now: b.clock.now }, call(b));
    expect(await b.provider.refund(operation(txid, 3000), call(b, 'idem-refund-1'))).toEqual({ status: 'success', transactionId: expect.stringMatching(/^[a-zA-Z0-9]{1,35}$/) });
    expect(await b.provider.refund(operation(txid, 3000), call(b, 'idem-refund-1'))).toMatchObject({ status: 'success' });
    const requested = b.simulator.exchanges.filter((e) => e.route === '/pix/{e2eid}/devolucao/{id}' && e.method === 'PUT');
    expect(requested.map((e) => e.requestBody)).toEqual([{ valor: '30.00', natureza: 'ORIGINAL' }]);
    expect(await query()).toEqual({ found: true, status: 'authorized', providerStatus: 'CONCLUIDA (devolvido 30.00)', capturedAmount: 10000, refundedAmount: 3000 });
    expect(await b.provider.refund(operation(txid, 7001), call(b))).toMatchObject({ status: 'failed', declinedCode: 'invalid_amount' });
    expect((await b.provider.refund(operation(txid, 7000), call(b))).status).toBe('success');
    expect(await query()).toMatchObject({ status: 'voided', refundedAmount: 10000 });
  });

  it('answers a devolução EM_PROCESSAMENTO as pending (refund_pending on query) and one NAO_REALIZADO as failed', async () => {
    const b = await bench();
    const txid = await authorized(b, charge(5000));
    await b.simulator.pay(txid);
    b.simulator.setRefundOutcome('NAO_REALIZADO');
    expect(await b.provider.refund(operation(txid, 1000), call(b))).toMatchObject({ status: 'failed', message: expect.stringContaining('NAO_REALIZADO') });
    b.simulator.setRefundOutcome('EM_PROCESSAMENTO');
    expect(await b.provider.refund(operation(txid, 1000), call(b))).toMatchObject({ status: 'pending' });
    expect(await b.provider.query({ chargeId: 'c', transactionId: txid, paymentType: 'pix', amount: 5000, currency: 'BRL', now: b.clock.now }, call(b))).toMatchObject({ status: 'refund_pending', capturedAmount: 5000 });
  });

  it('refuses to refund a cob not paid, and never captures', async () => {
    const b = await bench();
    const txid = await authorized(b, charge(3000));
    expect(await b.provider.refund(operation(txid, 1000), call(b))).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
    expect(await b.provider.capture(operation(txid, 3000), call(b))).toMatchObject({ status: 'failed', message: expect.stringContaining('no capture') });
  });

  it('sends requests and gets answers that validate against the API Pix 2.9.0 document, webhook body included', async () => {
    const b = await bench();
    const receiver = await webhookReceiver();
    try {
      await b.provider.registerWebhook(b.credentials, receiver.url);
      const arrived = receiver.next();
      const small = await authorized(b, charge(999));
      const webhookBody = JSON.parse((await arrived).toString('utf8')) as unknown;
      const large = await authorized(b, charge(25000));
      await b.provider.authorize(charge(25000, { chargeId: `chg_${String(charges).padStart(8, '0')}` }), call(b));
      await b.simulator.pay(large);
      await b.provider.refund(operation(large, 5000), call(b));
      await b.provider.refund(operation(small, 999), call(b));
      const unpaid = await authorized(b, charge(4000));
      await b.provider.cancel(operation(unpaid, 4000), call(b));
      await b.provider.cancel(operation(unpaid, 4000), call(b));
      await b.provider.query({ chargeId: 'c', transactionId: 'abcdefghijklmnopqrstuvwxyz0123', paymentType: 'pix', amount: 1, currency: 'BRL', now: b.clock.now }, call(b));

      const routes = new Set(b.simulator.exchanges.map((e) => `${e.method} ${e.route} ${e.status}`));
      for (const expected of ['PUT /cob/{txid} 201', 'PUT /cob/{txid} 400', 'GET /cob/{txid} 200', 'GET /cob/{txid} 404', 'PATCH /cob/{txid} 200', 'PATCH /cob/{txid} 400', 'PUT /pix/{e2eid}/devolucao/{id} 201', 'PUT /webhook/{chave} 200']) {
        expect(routes).toContain(expected);
      }
      expect(validateExchanges(b.simulator.exchanges)).toEqual([]);
      expect(check(WEBHOOK_PIX_BODY, webhookBody)).toEqual({ valid: true, errors: [] });
    } finally {
      await receiver.close();
    }
  });

  it('fails that validation when a field is renamed, in a request and in an answer', async () => {
    const b = await bench();
    await authorized(b, charge(12345));
    const put = b.simulator.exchanges.find((e) => e.method === 'PUT' && e.route === '/cob/{txid}' && e.status === 201)!;
    const request = put.requestBody as Record<string, unknown>;
    const answer = put.responseBody as Record<string, unknown>;
    expect(validateExchanges([put])).toEqual([]);
    const { valor, ...withoutValor } = request;
    expect(validateExchanges([{ ...put, requestBody: { ...withoutValor, value: valor } }])).toEqual([
      "PUT /cob/{txid} 201 request: (root) must have required property 'valor', value is not in the document's schema",
    ]);
    const { solicitacaoPagador, ...withoutRequest } = request;
    expect(validateExchanges([{ ...put, requestBody: { ...withoutRequest, solicitacaoDoPagador: solicitacaoPagador } }])).toEqual([
      "PUT /cob/{txid} 201 request: solicitacaoDoPagador is not in the document's schema",
    ]);
    const { pixCopiaECola, ...withoutCode } = answer;
    expect(validateExchanges([{ ...put, responseBody: { ...withoutCode, pixCopiaCola: pixCopiaECola } }])).toEqual([
      "PUT /cob/{txid} 201 answer: pixCopiaCola is not in the document's schema",
    ]);
  });
});

describe('Pix notifications', () => {
  const read = (body: unknown) => pixNotifications.read({ headers: {}, rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), query: {} }, {});
  const pix = { endToEndId: 'E12345678202606011500abcdefghijk', txid: 'abcdefghijklmnopqrstuvwxyz012345', valor: '10.00', horario: '2026-06-01T15:00:00.000Z' };

  it('names each txid once, trusts no status, and skips a Pix without a txid', () => {
    expect(read({ pix: [pix, { ...pix, endToEndId: 'E12345678202606011500abcdefghijl' }, { ...pix, txid: undefined }] })).toEqual({
      transactions: [{ transactionId: pix.txid }],
      reply: { status: 200 },
    });
  });

  it('refuses what is not the webhook body', () => {
    expect(() => read('not json')).toThrow('not JSON');
    expect(() => read({ pix: [] })).toThrow('API Pix webhook body');
    expect(() => read({ pix: [{ ...pix, valor: 10 }] })).toThrow('pix.0.valor');
    expect(() => read({ cobs: [pix] })).toThrow('API Pix webhook body');
  });
});

describe.each<PixSimulatorProfile>(['ITAU', 'SANTANDER', 'BB'])('the %s profile', (profile) => {
  it('gets its token as the bank asks and makes, reads and removes a cob', async () => {
    const b = await bench({ profile });
    const txid = await authorized(b, charge(5555));
    expect((await b.provider.query({ chargeId: 'c', transactionId: txid, paymentType: 'pix', amount: 5555, currency: 'BRL', now: b.clock.now }, call(b))).status).toBe('pending');
    expect((await b.provider.cancel(operation(txid, 5555), call(b))).status).toBe('success');
    expect(b.simulator.tokensIssued()).toBe(1);
    expect(validateExchanges(b.simulator.exchanges)).toEqual([]);
    const wrong = await b.provider.authorize(charge(5555), call(b, 'idem-wrong', { ...b.credentials, clientSecret: 'wrong-secret-for-profile' }));
    expect(wrong).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
  });
});

describe('Pix credentials', () => {
  it('asks PIX_BB entries for the developer key (gw-dev-app-key), and BB calls fail without it', async () => {
    const entry = { type: 'PIX_BB', clientId: 'id', clientSecret: 'secret', certificate: tls.clientBundle, pixKey: KEY };
    expect(pixCredentials.safeParse(entry).error?.issues.map((i) => i.path.join('.'))).toEqual(['developerKey']);
    expect(pixCredentials.safeParse({ ...entry, type: 'PIX_EFI' }).success).toBe(true);
    const b = await bench({ profile: 'BB' });
    const result = await b.provider.authorize(charge(1200), call(b, 'idem-bb', { ...b.credentials, developerKey: 'another-key' }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'not_permitted' });
  });
});

describe('Pix bank profiles', () => {
  it('sends each entry to its bank\'s documented hosts for its environment, unless the operator set PIX_<BANK>_API_URL / _TOKEN_URL', () => {
    expect(pixEndpoints(PIX_PROFILES.PIX_EFI, {}, undefined)).toEqual({ api: 'https://pix.api.efipay.com.br/v2', token: 'https://pix.api.efipay.com.br/oauth/token' });
    expect(pixEndpoints(PIX_PROFILES.PIX_EFI, {}, 'sandbox')).toEqual({ api: 'https://pix-h.api.efipay.com.br/v2', token: 'https://pix-h.api.efipay.com.br/oauth/token' });
    expect(pixEndpoints(PIX_PROFILES.PIX_ITAU, {}, 'production')).toEqual({ api: 'https://secure.api.itau/pix_recebimentos/v2', token: 'https://sts.itau.com.br/api/oauth/token' });
    expect(pixEndpoints(PIX_PROFILES.PIX_SANTANDER, {}, 'sandbox').api).toBe('https://trust-pix-h.santander.com.br/api/v1');
    expect(pixEndpoints(PIX_PROFILES.PIX_BB, {}, 'sandbox')).toEqual({ api: 'https://api-pix.hm.bb.com.br/pix/v2', token: 'https://oauth.hm.bb.com.br/oauth/token' });
    const env = { PIX_BB_API_URL: 'https://pix-bb.internal/pix/v2', PIX_BB_TOKEN_URL: 'https://oauth-bb.internal/oauth/token', PIX_EFI_API_URL: '  ' };
    expect(pixEndpoints(PIX_PROFILES.PIX_BB, env, 'sandbox')).toEqual({ api: 'https://pix-bb.internal/pix/v2', token: 'https://oauth-bb.internal/oauth/token' });
    expect(pixEndpoints(PIX_PROFILES.PIX_EFI, env, 'sandbox').api).toBe('https://pix-h.api.efipay.com.br/v2');
  });

  it('registers the webhook URL so that the /pix the PSP appends lands in a parameter (Efí\'s ?ignorar=)', () => {
    expect(webhookUrlFor('https://platform.example/v1/provider-notifications/prv_1')).toBe('https://platform.example/v1/provider-notifications/prv_1?ignorar=');
    expect(webhookUrlFor('https://platform.example/hook?a=1')).toBe('https://platform.example/hook?a=1&ignorar=');
    expect(webhookUrlFor('https://platform.example/hook?ignorar=')).toBe('https://platform.example/hook?ignorar=');
  });
});

describe('Pix error shapes', () => {
  const answer = (status: number, body: unknown) => ({ status, headers: {}, body });

  it('reads the BCB problem with its violations, never their values', () => {
    const failure = failureOf(
      answer(400, {
        type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
        title: 'Cobrança inválida.',
        status: 400,
        detail: 'A requisição não respeita o schema.',
        violacoes: [{ razao: 'O campo cob.chave não respeita o schema.', propriedade: 'cob.chave', valor: 'chave-do-recebedor-secreta' }],
      }),
      'PUT /cob/{txid}',
    );
    expect(failure).toEqual({
      kind: 'CobOperacaoInvalida',
      declinedCode: 'invalid_data',
      technical: false,
      message: 'PUT /cob/{txid} answered 400: Cobrança inválida.; A requisição não respeita o schema.; cob.chave: O campo cob.chave não respeita o schema.',
    });
  });

  it('makes 401 and 403 final, whatever the body says, and 429 or an unavailable service technical', () => {
    expect(failureOf(answer(401, { error: 'invalid_client', error_description: 'bad' }), 'token')).toMatchObject({ kind: 'invalid_client', declinedCode: 'invalid_merchant', technical: false });
    expect(failureOf(answer(403, { type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', title: 't', status: 403 }), 'x')).toMatchObject({ declinedCode: 'not_permitted', technical: false });
    expect(failureOf(answer(401, ''), 'x')).toMatchObject({ kind: 'http_401', declinedCode: 'invalid_merchant', technical: false });
    expect(failureOf(answer(429, ''), 'x')).toMatchObject({ declinedCode: 'try_again', technical: true });
    expect(failureOf(answer(400, { type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', title: 't', status: 400 }), 'x')).toMatchObject({ declinedCode: 'try_again', technical: true });
    expect(failureOf(answer(400, { nome: 'txid_duplicado', mensagem: 'Campo txid já utilizado' }), 'x')).toMatchObject({ kind: 'txid_duplicado', declinedCode: 'invalid_data', message: 'x answered 400: txid_duplicado; Campo txid já utilizado' });
  });
});
