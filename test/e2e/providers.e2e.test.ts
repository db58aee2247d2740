import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { SERVICES } from '@platform/catalog';
import { DEMO_ACCOUNTS, demoProviders, startProviderSimulators, type ProviderSimulators } from '@platform/devstack';
import { REDE_APPROVED_CARD, REDE_FORCED_RETURN_PREFIX, testTls, type CieloSimulator, type RunningPixSimulator, type RunningRedeSimulator } from '@platform/simulators';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type ApiResponse, type Credentials, type TestPlatform } from './platform';

/**
 * The real providers' connectors through the gateway, against their simulators (Cielo's "Simulado" rules, e.Rede's
 * test and forcing cards, Efí's API Pix homologation rules): merchants routed Cielo, Rede, SANDBOX; Rede alone; Pix
 * at Efí settled by the notification Efí posts to the gateway; the public notification route refusing what it must.
 */

type Json = Record<string, unknown>;
interface TransactionRequest {
  providerId: string | null;
  providerType: string;
  transactionId: string | null;
  requestType: string;
  requestStatus: string;
  amount: number;
  declinedCode: string | null;
  message: string | null;
}
interface Charge {
  id: string;
  status: string;
  amount: number;
  capturedAmount: number;
  refundedAmount: number;
  providerId: string | null;
  declinedCode: string | null;
  paymentMethod: Json & { qrCodeData?: string | null };
  transactionRequests: TransactionRequest[];
}
interface MerchantAnswer {
  id: string;
  providers: Array<{ id: string; priority: number; credentials: { type: string } }>;
}

/** The simulators' clock: the suite's start, held still, so that their "same day" and expiry rules never move under a test. */
const STARTED_AT = new Date();
const clock = () => STARTED_AT;
const expiration = `12/${STARTED_AT.getUTCFullYear() + 5}`;
/** The headers registered with Cielo for its Notification Post (the entry lists them; a post without them is refused). */
const CIELO_NOTIFICATION_HEADERS = { 'x-store-secret': 'registered-with-cielo-support' };

/** Every card number the suite typed, looked for afterwards in every answer and log line. */
const cardNumbers: string[] = [];
const card = (cardNumber: string) => {
  cardNumbers.push(cardNumber);
  return { cardHolderName: 'Ana Souza', cardNumber, cardCvv: '123', cardExpirationDate: expiration };
};
/** A Simulado card: Cielo's sandbox answers by the card number's last digit. */
const simulado = (lastDigit: number) => card(cardNumberEnding(lastDigit));
const chain = (charge: Charge) => charge.transactionRequests.map((r) => [r.providerType, r.requestType, r.requestStatus]);
const transactionOf = (charge: Charge) => charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.requestStatus === 'success')?.transactionId ?? '';

describe('real-provider connectors through the gateway (Cielo, Rede, Pix at Efí)', () => {
  let simulators: ProviderSimulators;
  let cielo: CieloSimulator;
  let rede: RunningRedeSimulator;
  let efi: RunningPixSimulator;
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let other: Credentials;
  /** Cielo (1), Rede (2), SANDBOX (3); the Cielo entry lists the Notification Post's headers. */
  let routed: { merchantId: string; cielo: string; rede: string; sandbox: string };
  let redeAlone: { merchantId: string; rede: string };
  let pixMerchant: { merchantId: string; efi: string };
  let redeThenSandbox: { merchantId: string; rede: string; sandbox: string };
  let customerId: string;
  /** Every answer of the gateway, as text. */
  const answers: string[] = [];

  const merchant = async (who: Credentials, name: string, providers: Array<{ name: string; priority: number; credentials: Json }>) => {
    const created = await api<MerchantAnswer>('POST', '/v1/merchants', { auth: who, body: { mcc: '5999', name, providers } });
    if (created.status !== 201) throw new Error(`merchant ${name}: ${created.status} ${JSON.stringify(created.body)}`);
    const byPriority = [...created.body.providers].sort((a, b) => a.priority - b.priority).map((p) => p.id);
    return { merchantId: created.body.id, ids: byPriority };
  };
  const cieloEntry = (extra: Json = {}) => ({ name: 'Cielo', priority: 1, credentials: { type: 'CIELO', ...DEMO_ACCOUNTS.cielo, environment: 'sandbox', ...extra } });
  const redeEntry = (priority: number) => ({ name: 'Rede', priority, credentials: { type: 'REDE', ...DEMO_ACCOUNTS.rede, environment: 'sandbox' } });
  const sandboxEntry = (priority: number) => ({ name: 'Sandbox', priority, credentials: { type: 'SANDBOX' } });
  /** The demo Efí entry, with a Pix key of this merchant's own (the bank keeps one webhook per key). */
  const efiEntry = (pixKey: string) => {
    const entry = demoProviders().find((p) => p.credentials.type === 'PIX_EFI');
    if (!entry) throw new Error('no PIX_EFI entry in the demo providers');
    return { name: 'Pix Efí', priority: 1, credentials: { ...entry.credentials, pixKey } };
  };

  const cardCharge = (merchantId: string, amount: number, source: Json, extra: { capture?: boolean; headers?: Record<string, string>; who?: Credentials } = {}) =>
    api<Charge>('POST', '/v1/charges', {
      auth: extra.who ?? client,
      headers: extra.headers,
      body: {
        merchantId,
        amount,
        currency: 'BRL',
        ...(extra.capture === undefined ? {} : { capture: extra.capture }),
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: source },
      },
    });
  const pixCharge = (merchantId: string, amount: number) =>
    api<Charge>('POST', '/v1/charges', {
      auth: client,
      body: { merchantId, amount, currency: 'BRL', paymentMethod: { paymentType: 'pix', expiresIn: 3600 }, paymentSource: { sourceType: 'customer', customerId } },
    });
  const read = async (id: string, who: Credentials = client) => {
    const answer = await api<Charge>('GET', `/v1/charges/${id}`, { auth: who });
    if (answer.status !== 200) throw new Error(`GET charge: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const untilStatus = (id: string, status: string, what: string) =>
    eventually(
      async () => {
        const charge = await read(id);
        return charge.status === status ? charge : undefined;
      },
      what,
      { timeoutMs: 20_000, intervalMs: 200 },
    );
  /** A transaction as e.Rede's query answers it (GET /v2/transactions/{tid}, with a token of the demo PV). */
  const redeTransaction = async (tid: string) => {
    const basic = Buffer.from(`${DEMO_ACCOUNTS.rede.pv}:${DEMO_ACCOUNTS.rede.token}`).toString('base64');
    const issued = await fetch(rede.oauthUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const { access_token: accessToken } = (await issued.json()) as { access_token: string };
    const answer = await fetch(`${rede.transactionsUrl}/${tid}`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { authorization: { status: string; amount: number }; capture?: { amount: number }; refunds?: Array<{ amount: number; status: string }> };
  };
  /** Efí's webhook posts of a txid, once each has its answer (the charge may change before Efí has read the answer). */
  const deliveriesOf = (txid: string) =>
    eventually(
      async () => {
        const posted = efi.deliveries.filter((d) => d.body.pix.some((p) => p.txid === txid));
        return posted.length > 0 && posted.every((d) => d.status !== undefined || d.error !== undefined) ? posted : undefined;
      },
      `the answers to Efí's webhook posts of ${txid}`,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  const notify = (providerId: string, body: string, headers: Record<string, string> = {}) =>
    api<Json>('POST', `/v1/provider-notifications/${providerId}`, { raw: body, headers: { 'content-type': 'application/json', ...headers } });

  beforeAll(async () => {
    simulators = await startProviderSimulators({ env: {}, clock });
    if (!simulators.cielo || !simulators.rede || !simulators.pix.EFI) throw new Error(`simulators not started: ${simulators.running.join(', ')}`);
    cielo = simulators.cielo;
    rede = simulators.rede;
    efi = simulators.pix.EFI;
    // info level: the access logs and the connectors' own lines are searched for secrets too.
    platform = await startTestPlatform('e2eproviders', { ...simulators.env, PROVIDER_TIMEOUT_MS: '1500' }, 'info');
    const gateway = apiClient(platform.gatewayUrl);
    api = async <T = Json>(method: string, route: string, options?: Parameters<typeof gateway>[2]): Promise<ApiResponse<T>> => {
      const answer = await gateway<T>(method, route, options);
      answers.push(JSON.stringify(answer.body));
      return answer;
    };
    client = await createClient(platform.adminUrl, platform.adminToken, 'Providers Store');
    other = await createClient(platform.adminUrl, platform.adminToken, 'Other Store');

    const first = await merchant(client, 'Loja Cielo', [cieloEntry({ notificationHeaders: CIELO_NOTIFICATION_HEADERS }), redeEntry(2), sandboxEntry(3)]);
    routed = { merchantId: first.merchantId, cielo: first.ids[0]!, rede: first.ids[1]!, sandbox: first.ids[2]! };
    const second = await merchant(client, 'Loja Rede', [redeEntry(1)]);
    redeAlone = { merchantId: second.merchantId, rede: second.ids[0]! };
    const third = await merchant(client, 'Loja Pix', [efiEntry('pix.loja@demo.example'), sandboxEntry(2)]);
    pixMerchant = { merchantId: third.merchantId, efi: third.ids[0]! };
    const fourth = await merchant(client, 'Loja Rede e Sandbox', [redeEntry(1), sandboxEntry(2)]);
    redeThenSandbox = { merchantId: fourth.merchantId, rede: fourth.ids[0]!, sandbox: fourth.ids[1]! };

    const customer = await api<{ id: string }>('POST', '/v1/customers', {
      auth: client,
      body: { name: 'João Lima', email: 'joao.providers@example.com', phoneNumber: '11988887777', document: { type: 'cpf', number: '11144477735', country: 'BR' } },
    });
    if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
    customerId = customer.body.id;
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await simulators?.close();
  });

  describe('Cielo (1), Rede (2), SANDBOX (3)', () => {
    it('authorizes and captures at Cielo at once', async () => {
      const before = cielo.salesCreated;
      const charge = await cardCharge(routed.merchantId, 4_990, simulado(0));
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'authorized', amount: 4_990, capturedAmount: 4_990, providerId: routed.cielo, declinedCode: null });
      expect(chain(charge.body)).toEqual([['CIELO', 'authorization', 'success']]);
      expect(cielo.salesCreated).toBe(before + 1);
      // Cielo holds it as a captured sale (PaymentConfirmed) of that amount, in centavos.
      expect(cielo.sale(transactionOf(charge.body))).toMatchObject({ status: 2, amount: 4_990, capturedAmount: 4_990 });
    });

    it('pre-authorizes at Cielo, captures part of it and refunds part of the capture', async () => {
      const charge = await cardCharge(routed.merchantId, 10_000, simulado(1), { capture: false });
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'pre_authorized', providerId: routed.cielo });
      const paymentId = transactionOf(charge.body);
      expect(cielo.sale(paymentId)).toMatchObject({ status: 1, amount: 10_000, capturedAmount: 0 });

      const captured = await api<Charge>('POST', `/v1/charges/${charge.body.id}/capture`, { auth: client, body: { amount: 6_000 } });
      expect(captured.status).toBe(201);
      expect(captured.body).toMatchObject({ status: 'authorized', amount: 6_000, capturedAmount: 6_000 });
      expect(cielo.sale(paymentId)).toMatchObject({ status: 2, capturedAmount: 6_000 });

      const refunded = await api<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: { amount: 2_500 } });
      expect(refunded.status).toBe(201);
      expect(refunded.body).toMatchObject({ status: 'authorized', capturedAmount: 6_000, refundedAmount: 2_500 });
      expect(chain(refunded.body)).toEqual([
        ['CIELO', 'authorization', 'success'],
        ['CIELO', 'capture', 'success'],
        ['CIELO', 'refund', 'success'],
      ]);
      expect(cielo.sale(paymentId)).toMatchObject({ status: 2, capturedAmount: 6_000, voidedAmount: 2_500 });
    });

    it('voids a pre-authorization at Cielo', async () => {
      const charge = await cardCharge(routed.merchantId, 3_000, simulado(4), { capture: false });
      expect(charge.body.status).toBe('pre_authorized');
      const voided = await api<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: {} });
      expect(voided.status).toBe(201);
      expect(voided.body.status).toBe('voided');
      expect(chain(voided.body)).toEqual([
        ['CIELO', 'authorization', 'success'],
        ['CIELO', 'void', 'success'],
      ]);
      expect(cielo.sale(transactionOf(charge.body))).toMatchObject({ status: 10, voidedAmount: 3_000 });
    });

    it("stops at Cielo's business decline: one request, Cielo's return code mapped", async () => {
      const redeBefore = rede.authorizations();
      // Simulado, final digit 5: Not Authorized, return code 78 (Blocked Card).
      const charge = await cardCharge(routed.merchantId, 2_000, simulado(5));
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'failed', declinedCode: 'restricted_card' });
      expect(chain(charge.body)).toEqual([['CIELO', 'authorization', 'declined']]);
      expect(charge.body.transactionRequests[0]).toMatchObject({ providerId: routed.cielo, declinedCode: 'restricted_card' });
      expect(rede.authorizations()).toBe(redeBefore);
    });

    it("fails over from Cielo's technical decline to Rede, which approves: one charge, two requests", async () => {
      const redeBefore = rede.authorizations();
      // Simulado, final digit 6: Not Authorized, return code 99 (Time Out), a technical refusal.
      const charge = await cardCharge(routed.merchantId, 5_500, simulado(6));
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'authorized', providerId: routed.rede, declinedCode: null });
      expect(charge.body.transactionRequests.map((r) => [r.providerId, r.providerType, r.requestStatus === 'success'])).toEqual([
        [routed.cielo, 'CIELO', false],
        [routed.rede, 'REDE', true],
      ]);
      expect(charge.body.transactionRequests[0]!.declinedCode).toBe('try_again');
      expect(rede.authorizations()).toBe(redeBefore + 1);
      expect((await read(charge.body.id)).status).toBe('authorized');
    });

    it('does not fail over when Cielo does not answer within the provider deadline: the sale may be made, so the charge is pending at Cielo', async () => {
      const redeBefore = rede.authorizations();
      cielo.setLatency(4_000);
      let charge: ApiResponse<Charge>;
      try {
        charge = await cardCharge(routed.merchantId, 6_100, simulado(0));
      } finally {
        cielo.setLatency(0);
      }
      expect(charge.status).toBe(201);
      // Cielo got the sale and answers too late to be read: its outcome is unknown, so no second card sale is made.
      expect(charge.body).toMatchObject({ status: 'pending', providerId: routed.cielo });
      expect(charge.body.transactionRequests.map((r) => [r.providerType, r.requestStatus])).toEqual([['CIELO', 'processing']]);
      expect(rede.authorizations()).toBe(redeBefore);
    });

    it('reaches Cielo once for a POST retried with the same X-Idempotency-Key, and answers the same charge', async () => {
      const before = cielo.salesCreated;
      const key = `providers-${randomUUID()}`;
      const source = simulado(1);
      const first = await cardCharge(routed.merchantId, 7_700, source, { headers: { 'x-idempotency-key': key } });
      const again = await cardCharge(routed.merchantId, 7_700, source, { headers: { 'x-idempotency-key': key } });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(first.body.id);
      expect(again.body).toMatchObject({ status: 'authorized', providerId: routed.cielo });
      expect(cielo.salesCreated).toBe(before + 1);
    });
  });

  describe('Rede alone', () => {
    it('authorizes without capture, then captures', async () => {
      const charge = await cardCharge(redeAlone.merchantId, 8_000, card(REDE_APPROVED_CARD), { capture: false });
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'pre_authorized', providerId: redeAlone.rede });
      const captured = await api<Charge>('POST', `/v1/charges/${charge.body.id}/capture`, { auth: client, body: {} });
      expect(captured.status).toBe(201);
      expect(captured.body).toMatchObject({ status: 'authorized', capturedAmount: 8_000 });
      expect(chain(captured.body)).toEqual([
        ['REDE', 'authorization', 'success'],
        ['REDE', 'capture', 'success'],
      ]);
      expect(await redeTransaction(transactionOf(charge.body))).toMatchObject({ authorization: { status: 'Approved', amount: 8_000 }, capture: { amount: 8_000 } });
    });

    it('cancels a pre-authorization', async () => {
      const charge = await cardCharge(redeAlone.merchantId, 2_200, card(REDE_APPROVED_CARD), { capture: false });
      expect(charge.body.status).toBe('pre_authorized');
      const voided = await api<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: {} });
      expect(voided.status).toBe(201);
      expect(voided.body.status).toBe('voided');
      expect(chain(voided.body)).toEqual([
        ['REDE', 'authorization', 'success'],
        ['REDE', 'void', 'success'],
      ]);
      const atRede = await redeTransaction(transactionOf(charge.body));
      expect(atRede.authorization.status).toBe('Canceled');
      expect(atRede.capture).toBeUndefined();
    });

    it('refunds part of a captured charge', async () => {
      const charge = await cardCharge(redeAlone.merchantId, 9_000, card(REDE_APPROVED_CARD));
      expect(charge.body).toMatchObject({ status: 'authorized', capturedAmount: 9_000, providerId: redeAlone.rede });
      const refunded = await api<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: { amount: 4_000 } });
      expect(refunded.status).toBe(201);
      expect(refunded.body).toMatchObject({ status: 'authorized', refundedAmount: 4_000 });
      expect(chain(refunded.body)).toEqual([
        ['REDE', 'authorization', 'success'],
        ['REDE', 'refund', 'success'],
      ]);
      const atRede = await redeTransaction(transactionOf(charge.body));
      expect(atRede).toMatchObject({ authorization: { status: 'Approved' }, capture: { amount: 9_000 } });
      expect(atRede.refunds?.map((r) => [r.amount, r.status])).toEqual([[4_000, 'Done']]);
    });

    it("maps Rede's authorization return 119 (invalid security code) to invalid_cvv", async () => {
      // The simulator's forcing card for return 119 (a Luhn-valid number, so the vault takes it).
      const charge = await cardCharge(redeAlone.merchantId, 1_900, card(`${REDE_FORCED_RETURN_PREFIX}119`));
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'failed', declinedCode: 'invalid_cvv' });
      expect(chain(charge.body)).toEqual([['REDE', 'authorization', 'declined']]);
    });
  });

  describe('Pix at Efí', () => {
    it('registered the notification URL of the entry at Efí when the merchant was saved', () => {
      const registered = efi.exchanges.filter((e) => e.method === 'PUT' && e.route === '/webhook/{chave}');
      expect(registered.map((e) => e.status)).toEqual([200]);
      expect(JSON.stringify(registered[0]!.requestBody)).toContain(`/v1/provider-notifications/${pixMerchant.efi}`);
    });

    it('authorizes a Pix of R$ 10.00, which Efí pays at once, through the notification Efí posts', async () => {
      const charge = await pixCharge(pixMerchant.merchantId, 1_000);
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'pending', providerId: pixMerchant.efi });
      expect(charge.body.paymentMethod.qrCodeData).toMatch(/^000201/);
      expect(charge.body.transactionRequests.map((r) => [r.providerType, r.requestType])).toEqual([['PIX_EFI', 'authorization']]);
      const txid = charge.body.transactionRequests[0]!.transactionId!;
      const authorized = await untilStatus(charge.body.id, 'authorized', 'the Pix authorized by its notification');
      expect(authorized.amount).toBe(1_000);
      // Efí posted it to the entry's notification URL and the gateway took it.
      const delivered = await deliveriesOf(txid);
      expect(delivered.map((d) => d.status)).toEqual([200]);
      expect(delivered[0]!.url).toContain(`/v1/provider-notifications/${pixMerchant.efi}`);
    });

    it('keeps a larger Pix pending until it is paid, then authorizes it by notification, and refunds it', async () => {
      const charge = await pixCharge(pixMerchant.merchantId, 12_345);
      expect(charge.status).toBe(201);
      expect(charge.body.status).toBe('pending');
      const txid = charge.body.transactionRequests[0]!.transactionId!;
      expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
      expect(efi.deliveries.filter((d) => d.body.pix.some((p) => p.txid === txid))).toEqual([]);
      expect((await read(charge.body.id)).status).toBe('pending');

      await efi.pay(txid);
      const authorized = await untilStatus(charge.body.id, 'authorized', 'the paid Pix authorized by its notification');
      expect(authorized.amount).toBe(12_345);
      expect((await deliveriesOf(txid)).map((d) => d.status)).toEqual([200]);

      const refunded = await api<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: {} });
      expect(refunded.status).toBe(201);
      expect(refunded.body).toMatchObject({ status: 'voided', refundedAmount: 12_345 });
      const refunds = efi.exchanges.filter((e) => e.method === 'PUT' && e.route === '/pix/{e2eid}/devolucao/{id}');
      expect(refunds.at(-1)).toMatchObject({ status: 201, requestBody: { valor: '123.45' } });
    });

    it('registers the notification URL again when the entry is saved with another Pix key, and a Pix to that key is authorized by its notification', async () => {
      const registrations = () => efi.exchanges.filter((e) => e.method === 'PUT' && e.route === '/webhook/{chave}');
      const before = registrations().length;
      const updated = await api('PATCH', `/v1/providers/${pixMerchant.efi}`, { auth: client, body: { credentials: efiEntry('pix.nova@demo.example').credentials } });
      expect(updated.status).toBe(200);
      expect(registrations().slice(before).map((e) => [e.status, JSON.stringify(e.requestBody).includes(`/v1/provider-notifications/${pixMerchant.efi}`)])).toEqual([[200, true]]);

      const charge = await pixCharge(pixMerchant.merchantId, 900);
      expect(charge.body.status).toBe('pending');
      const txid = charge.body.transactionRequests[0]!.transactionId!;
      const cob = efi.exchanges.find((e) => e.method === 'PUT' && e.route === '/cob/{txid}' && JSON.stringify(e.responseBody).includes(txid));
      expect(cob?.requestBody).toMatchObject({ chave: 'pix.nova@demo.example' });
      await untilStatus(charge.body.id, 'authorized', 'a Pix to the new key authorized by its notification');
    });

    it('skips Rede for a Pix (recorded, never called) and takes it at SANDBOX', async () => {
      const authorizations = rede.authorizations();
      const tokens = rede.tokensIssued();
      const charge = await pixCharge(redeThenSandbox.merchantId, 2_500);
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'pending', providerId: redeThenSandbox.sandbox });
      expect(charge.body.transactionRequests.map((r) => [r.providerId, r.providerType, r.requestStatus])).toEqual([
        [redeThenSandbox.rede, 'REDE', 'failed'],
        [redeThenSandbox.sandbox, 'SANDBOX', 'success'],
      ]);
      expect(charge.body.transactionRequests[0]!.message).toBe('skipped: REDE does not take pix');
      expect(rede.authorizations()).toBe(authorizations);
      expect(rede.tokensIssued()).toBe(tokens);
    });
  });

  describe('the provider notification route', () => {
    /** A Cielo pre-authorization voided at Cielo behind the platform's back: only a notification it believes tells it so. */
    async function voidedAtCielo(): Promise<{ charge: Charge; paymentId: string }> {
      const charge = await cardCharge(routed.merchantId, 3_300, simulado(0), { capture: false });
      expect(charge.body).toMatchObject({ status: 'pre_authorized', providerId: routed.cielo });
      const paymentId = transactionOf(charge.body);
      const voided = await fetch(`${cielo.url}/1/sales/${paymentId}/void`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', merchantid: DEMO_ACCOUNTS.cielo.merchantId, merchantkey: DEMO_ACCOUNTS.cielo.merchantKey },
      });
      expect(voided.status).toBe(200);
      await voided.arrayBuffer();
      expect(cielo.sale(paymentId)).toMatchObject({ status: 10 });
      return { charge: charge.body, paymentId };
    }

    it('refuses with 401 a notification its connector cannot verify, and nothing changes; the verified one is applied', async () => {
      const { charge, paymentId } = await voidedAtCielo();
      const body = JSON.stringify({ PaymentId: paymentId, ChangeType: 1 });

      const unsigned = await notify(routed.cielo, body);
      expect(unsigned.status).toBe(401);
      expect(unsigned.body).toMatchObject({ error: { code: 401 } });
      const wrong = await notify(routed.cielo, body, { 'x-store-secret': 'guessed-value-of-the-same-sz' });
      expect(wrong.status).toBe(401);
      const garbage = await notify(routed.cielo, 'not json', CIELO_NOTIFICATION_HEADERS);
      expect(garbage.status).toBe(401);
      expect((await read(charge.id)).status).toBe('pre_authorized');
      expect(JSON.stringify([unsigned.body, wrong.body, garbage.body])).not.toContain(CIELO_NOTIFICATION_HEADERS['x-store-secret']);

      const verified = await notify(routed.cielo, body, CIELO_NOTIFICATION_HEADERS);
      expect(verified.status).toBe(200);
      expect((await read(charge.id)).status).toBe('voided');
      // Routes match whatever the case of the path; the same post again changes nothing.
      const again = await api<Json>('POST', `/V1/PROVIDER-NOTIFICATIONS/${routed.cielo}`, { raw: body, headers: CIELO_NOTIFICATION_HEADERS });
      expect(again.status).toBe(200);
      expect((await read(charge.id)).status).toBe('voided');
    });

    it('refuses a Pix webhook body that is not the API Pix shape with 401', async () => {
      const charge = await pixCharge(pixMerchant.merchantId, 15_000);
      expect(charge.body.status).toBe('pending');
      const txid = charge.body.transactionRequests[0]!.transactionId!;
      for (const body of ['{}', JSON.stringify({ pix: [{ txid, valor: '150.00' }] }), '[1,2]']) {
        const answer = await notify(pixMerchant.efi, body);
        expect({ body, status: answer.status }).toEqual({ body, status: 401 });
      }
      expect((await read(charge.body.id)).status).toBe('pending');
    });

    it('answers 404 for an unknown provider id, a non-UUID and an entry whose connector reads no notifications; 401 for a Rede entry', async () => {
      const body = JSON.stringify({ PaymentId: randomUUID(), ChangeType: 1 });
      for (const providerId of [randomUUID(), 'not-a-uuid', '1', routed.sandbox]) {
        const answer = await notify(providerId, body, CIELO_NOTIFICATION_HEADERS);
        expect({ providerId, status: answer.status }).toEqual({ providerId, status: 404 });
        expect(answer.body).toMatchObject({ error: { code: 404 } });
      }
      // e.Rede signs nothing it posts: its connector refuses every notification (its charges are settled by asking Rede).
      const toRede = await notify(redeAlone.rede, JSON.stringify({ tid: '1', status: 'Approved' }));
      expect(toRede.status).toBe(401);
      expect(toRede.body).toMatchObject({ error: { code: 401 } });
    });

    it("changes nothing of a client's charge when another client posts to its own entry naming that charge's transaction", async () => {
      const { charge, paymentId } = await voidedAtCielo();
      const theirs = await merchant(other, 'Loja Outra', [cieloEntry()]);
      const body = JSON.stringify({ PaymentId: paymentId, ChangeType: 1 });
      const posted = await notify(theirs.ids[0]!, body);
      expect(posted.status).toBe(200);
      expect((await read(charge.id)).status).toBe('pre_authorized');
      expect((await api('GET', `/v1/charges/${charge.id}`, { auth: other })).status).toBe(404);
      // Posted to the entry the charge was made through, the same body is believed.
      expect((await notify(routed.cielo, body, CIELO_NOTIFICATION_HEADERS)).status).toBe(200);
      expect((await read(charge.id)).status).toBe('voided');
    });
  });

  it('never shows a card number, a provider key, a client secret or a private key in an answer, a log line or a database row', async () => {
    const privateKey = /-----BEGIN [A-Z ]*PRIVATE KEY-----\s+([A-Za-z0-9+/=]{40,})/.exec(testTls().clientBundle)?.[1];
    expect(privateKey).toEqual(expect.any(String));
    const secrets = [
      DEMO_ACCOUNTS.cielo.merchantKey,
      DEMO_ACCOUNTS.rede.token,
      DEMO_ACCOUNTS.pix.clientSecret,
      CIELO_NOTIFICATION_HEADERS['x-store-secret'],
      privateKey!.slice(0, 40),
      ...cardNumbers,
    ];
    expect(cardNumbers.length).toBeGreaterThanOrEqual(12);
    const logs = platform.output();
    expect(logs).toContain('/v1/provider-notifications/');
    expect(answers.length).toBeGreaterThan(50);
    const text = answers.join('\n');
    expect(secrets.filter((secret) => logs.includes(secret)).map((secret) => secret.slice(0, 4))).toEqual([]);
    expect(secrets.filter((secret) => text.includes(secret)).map((secret) => secret.slice(0, 4))).toEqual([]);

    // Stored credentials are sealed and card numbers are in the vault: no row of any service holds one in clear.
    const pattern = secrets.map((secret) => secret.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
    const found: string[] = [];
    for (const service of SERVICES) {
      const db = new Client({ connectionString: platform.databaseUrl(service.database) });
      await db.connect();
      try {
        const { rows: tables } = await db.query<{ table_name: string }>(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        );
        for (const { table_name: table } of tables) {
          const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" t WHERE t::text ~ $1`, [pattern]);
          if (rows[0]!.n > 0) found.push(`${service.database}.${table}: ${rows[0]!.n}`);
        }
      } finally {
        await db.end();
      }
    }
    expect(found).toEqual([]);
  });
});
