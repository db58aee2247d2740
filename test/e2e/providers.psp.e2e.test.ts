import { performance } from 'node:perf_hooks';
import { DEMO_ACCOUNTS, demoPspProviders, startProviderSimulators, type ProviderSimulators } from '@platform/devstack';
import {
  startPagarmeSimulator,
  type AdyenNotification,
  type MercadoPagoSimulator,
  type PagarmeHook,
  type PagarmeSimulator,
  type RunningAdyenSimulator,
  type RunningStripeSimulator,
} from '@platform/simulators';
import { eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type ApiResponse, type Credentials, type TestPlatform } from './platform';

/**
 * The PSP connectors (Pagar.me, Mercado Pago, Stripe, Adyen) through the gateway, against their simulators: each
 * provider's card flows, decline mapping, failover on a provider that does not answer in time and idempotent
 * retries; the notifications each provider posts to `/v1/provider-notifications/{providerId}` moving a charge,
 * replayed, and arriving before the synchronous answer; routing across them; a notification signed for another
 * client's entry, and one badly signed.
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
  transactionRequests: TransactionRequest[];
}
interface MerchantAnswer {
  id: string;
  providers: Array<{ id: string; priority: number }>;
}

/**
 * The simulators' time: the suite's start, moved on by the monotonic timer. Stripe's signature timestamps are checked
 * by the platform against its own clock (five minutes of tolerance), so the simulators' time may not stand still.
 */
const STARTED_AT = new Date();
const T0 = performance.now();
const clock = () => new Date(STARTED_AT.getTime() + Math.floor(performance.now() - T0));
/** Pagar.me's simulator stays at the start: its processing cards settle only when the test says so. */
const pagarmeClock = () => STARTED_AT;
const PROVIDER_TIMEOUT_MS = 4_000;

const chain = (charge: Charge) => charge.transactionRequests.map((r) => [r.providerType, r.requestType, r.requestStatus]);
const transactionOf = (charge: Charge) => charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.requestStatus === 'success')?.transactionId ?? '';
const entryOf = (type: string) => {
  const entry = demoPspProviders().find((p) => p.credentials.type === type);
  if (!entry) throw new Error(`no ${type} entry in the demo PSP providers`);
  return entry;
};

describe('PSP connectors through the gateway (Pagar.me, Mercado Pago, Stripe, Adyen)', () => {
  let simulators: ProviderSimulators;
  let pagarme: PagarmeSimulator;
  let mercadopago: MercadoPagoSimulator;
  let stripe: RunningStripeSimulator;
  let adyen: RunningAdyenSimulator;
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let other: Credentials;
  let customerId: string;
  /** Per provider: a merchant with that provider first and SANDBOX second. */
  const alone: Record<string, { merchantId: string; providerId: string; sandbox: string }> = {};
  let pagarmeThenMercadoPago: { merchantId: string; pagarme: string; mercadopago: string };

  /** Where Pagar.me's hooks go: posted through the gateway to this entry, each answer recorded. */
  let pagarmeTarget: string | undefined;
  const pagarmeDeliveries: Array<{ hook: PagarmeHook; status: number }> = [];
  /** What happened, in order, while a notification races its charge's synchronous answer. */
  const sequence: string[] = [];
  let settleOnOrder = false;
  /** Every answer of the gateway, as text. */
  const answers: string[] = [];

  const merchant = async (who: Credentials, name: string, providers: Array<{ name: string; priority: number; credentials: Record<string, unknown>; options?: Record<string, unknown> }>) => {
    const created = await api<MerchantAnswer>('POST', '/v1/merchants', { auth: who, body: { mcc: '5999', name, providers } });
    if (created.status !== 201) throw new Error(`merchant ${name}: ${created.status} ${JSON.stringify(created.body)}`);
    const ids = [...created.body.providers].sort((a, b) => a.priority - b.priority).map((p) => p.id);
    return { merchantId: created.body.id, ids };
  };
  const pspEntry = (type: string, priority: number) => ({ ...entryOf(type), priority });
  const sandboxEntry = (priority: number) => ({ name: 'Sandbox', priority, credentials: { type: 'SANDBOX' } });

  const cardCharge = (merchantId: string, amount: number, card: Json, extra: { capture?: boolean; headers?: Record<string, string>; who?: Credentials } = {}) =>
    api<Charge>('POST', '/v1/charges', {
      auth: extra.who ?? client,
      headers: extra.headers,
      body: {
        merchantId,
        amount,
        currency: 'BRL',
        ...(extra.capture === undefined ? {} : { capture: extra.capture }),
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card },
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
  /** The charge once `ok` holds; on a timeout, the error shows the charge as it was last read. */
  const until = async (id: string, what: string, ok: (charge: Charge) => boolean) => {
    let last: Charge | undefined;
    try {
      return await eventually(
        async () => {
          last = await read(id);
          return ok(last) ? last : undefined;
        },
        what,
        { timeoutMs: 20_000, intervalMs: 200 },
      );
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; last read: ${JSON.stringify(last && { status: last.status, capturedAmount: last.capturedAmount, refundedAmount: last.refundedAmount, requests: chain(last) })}`);
    }
  };
  const notify = (providerId: string, body: string, headers: Record<string, string> = {}, query = '') =>
    api<Json>('POST', `/v1/provider-notifications/${providerId}${query}`, { raw: body, headers: { 'content-type': 'application/json', ...headers } });

  /** A card per provider: its documented approving test card, or the one (or holder name) that forces a refusal. */
  const cards = {
    PAGARME: { approved: { cardHolderName: 'Ana Souza', cardNumber: '4000000000000010', cardCvv: '123', cardExpirationDate: '12/2030' } },
    MERCADOPAGO: { approved: { cardHolderName: 'APRO Ana Souza', cardNumber: '4235647728025682', cardCvv: '123', cardExpirationDate: '11/2030' } },
    STRIPE: { approved: { cardHolderName: 'Ana Souza', cardNumber: '4242424242424242', cardCvv: '123', cardExpirationDate: '12/2030' } },
    ADYEN: { approved: { cardHolderName: 'Ana Souza', cardNumber: '4111111111111111', cardCvv: '737', cardExpirationDate: '03/2030' } },
  } as const;

  beforeAll(async () => {
    // Pagar.me's simulator is this suite's own: its hooks are posted through the gateway by the suite (to the entry
    // only known once the merchant is saved), and it can settle a charge while its answer is still on the way.
    pagarme = await startPagarmeSimulator({
      clock: pagarmeClock,
      accounts: [{ ...DEMO_ACCOUNTS.pagarme }],
      notify: async (hook) => {
        if (!pagarmeTarget) return;
        const answer = await notify(pagarmeTarget, JSON.stringify(hook));
        pagarmeDeliveries.push({ hook, status: answer.status });
        sequence.push(`notification ${answer.status}`);
      },
      onRequest: (request) => {
        // Settled right after the order is made (the same turn), before its answer leaves (the latency).
        if (settleOnOrder && request.method === 'POST' && request.path.endsWith('/orders')) setImmediate(() => void pagarme.settle());
      },
    });
    simulators = await startProviderSimulators({ env: { PAGARME_API_URL: pagarme.apiUrl }, clock });
    if (!simulators.mercadopago || !simulators.stripe || !simulators.adyen) throw new Error(`simulators not started: ${simulators.running.join(', ')}`);
    mercadopago = simulators.mercadopago;
    stripe = simulators.stripe;
    adyen = simulators.adyen;
    platform = await startTestPlatform(
      'e2epsp',
      { ...simulators.env, PAGARME_API_URL: pagarme.apiUrl, PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) },
      'info',
    );
    const gateway = apiClient(platform.gatewayUrl);
    api = async <T = Json>(method: string, route: string, options?: Parameters<typeof gateway>[2]): Promise<ApiResponse<T>> => {
      const answer = await gateway<T>(method, route, options);
      answers.push(JSON.stringify(answer.body));
      return answer;
    };
    client = await createClient(platform.adminUrl, platform.adminToken, 'PSP Store');
    other = await createClient(platform.adminUrl, platform.adminToken, 'Other PSP Store');

    for (const type of ['PAGARME', 'MERCADOPAGO', 'STRIPE', 'ADYEN']) {
      const made = await merchant(client, `Loja ${type}`, [pspEntry(type, 1), sandboxEntry(2)]);
      alone[type] = { merchantId: made.merchantId, providerId: made.ids[0]!, sandbox: made.ids[1]! };
    }
    const routed = await merchant(client, 'Loja Pagar.me e Mercado Pago', [pspEntry('PAGARME', 1), pspEntry('MERCADOPAGO', 2)]);
    pagarmeThenMercadoPago = { merchantId: routed.merchantId, pagarme: routed.ids[0]!, mercadopago: routed.ids[1]! };

    // The endpoints registered at each provider, now that the entries exist.
    pagarmeTarget = alone.PAGARME!.providerId;
    stripe.setWebhookUrl(DEMO_ACCOUNTS.stripe.secretKey, `${platform.gatewayUrl}/v1/provider-notifications/${alone.STRIPE!.providerId}`);
    adyen.setWebhookUrl(DEMO_ACCOUNTS.adyen.merchantAccount, `${platform.gatewayUrl}/v1/provider-notifications/${alone.ADYEN!.providerId}`);

    const customer = await api<{ id: string }>('POST', '/v1/customers', {
      auth: client,
      body: { name: 'João Lima', email: 'joao.psp@example.com', phoneNumber: '11988887777', document: { type: 'cpf', number: '11144477735', country: 'BR' } },
    });
    if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
    customerId = customer.body.id;
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await simulators?.close();
    await pagarme?.close();
  });

  /** The four providers, each with how to count what reached it and how to make it hang. */
  const providers = () =>
    [
      { type: 'PAGARME', created: () => pagarme.ordersCreated, stall: (on: boolean) => pagarme.stall(on) },
      { type: 'MERCADOPAGO', created: () => mercadopago.paymentsCreated, stall: (on: boolean) => mercadopago.stall(on) },
      { type: 'STRIPE', created: () => stripe.paymentIntentsCreated(), stall: (on: boolean) => stripe.stall(on) },
      { type: 'ADYEN', created: () => adyen.paymentsCreated(), stall: (on: boolean) => adyen.stall(on) },
    ] as const;

  describe.each(['PAGARME', 'MERCADOPAGO', 'STRIPE', 'ADYEN'] as const)('%s', (type) => {
    const provider = () => providers().find((p) => p.type === type)!;
    const at = () => alone[type]!;
    const approved = () => ({ ...cards[type].approved });

    it('authorizes and captures at once', async () => {
      const before = provider().created();
      const charge = await cardCharge(at().merchantId, 4_990, approved());
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'authorized', amount: 4_990, capturedAmount: 4_990, providerId: at().providerId, declinedCode: null });
      expect(chain(charge.body)).toEqual([[type, 'authorization', 'success']]);
      expect(provider().created()).toBe(before + 1);
    });

    it('pre-authorizes without capture, then captures part of it', async () => {
      const charge = await cardCharge(at().merchantId, 10_000, approved(), { capture: false });
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ status: 'pre_authorized', capturedAmount: 0, providerId: at().providerId });
      const captured = await api<Charge>('POST', `/v1/charges/${charge.body.id}/capture`, { auth: client, body: { amount: 6_000 } });
      expect(captured.status).toBe(201);
      if (type === 'ADYEN') {
        // Adyen takes the capture as received; its signed CAPTURE notification, posted to the gateway, settles it.
        expect(captured.body.status).toBe('capture_pending');
        await until(charge.body.id, 'the capture settled by the notification Adyen posts', (c) => c.status === 'authorized');
      } else {
        expect(captured.body.status).toBe('authorized');
      }
      const after = await read(charge.body.id);
      expect(after).toMatchObject({ status: 'authorized', capturedAmount: 6_000 });
      expect(chain(after)).toEqual([
        [type, 'authorization', 'success'],
        [type, 'capture', 'success'],
      ]);
      const atProvider = transactionOf(after);
      if (type === 'PAGARME') expect(pagarme.charge(atProvider)).toMatchObject({ status: 'paid', paid_amount: 6_000 });
      if (type === 'MERCADOPAGO') expect(mercadopago.payment(atProvider)).toMatchObject({ status: 'approved', amount: 6_000, captured: true });
      if (type === 'STRIPE') expect(stripe.paymentIntent(atProvider)).toMatchObject({ status: 'succeeded', amount_received: 6_000 });
      if (type === 'ADYEN') expect(adyen.payment(atProvider)).toMatchObject({ capturedAmount: 6_000 });
    });

    it('voids a pre-authorization', async () => {
      const charge = await cardCharge(at().merchantId, 3_000, approved(), { capture: false });
      expect(charge.body.status).toBe('pre_authorized');
      const voided = await api<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: {} });
      expect(voided.status).toBe(201);
      const after = type === 'ADYEN' ? await until(charge.body.id, 'the cancellation settled by the notification Adyen posts', (c) => c.status === 'voided') : voided.body;
      expect(after.status).toBe('voided');
      expect(chain(after)).toEqual([
        [type, 'authorization', 'success'],
        [type, 'void', 'success'],
      ]);
      const atProvider = transactionOf(after);
      if (type === 'PAGARME') expect(pagarme.charge(atProvider)).toMatchObject({ status: 'canceled' });
      if (type === 'MERCADOPAGO') expect(mercadopago.payment(atProvider)).toMatchObject({ status: 'cancelled' });
      if (type === 'STRIPE') expect(stripe.paymentIntent(atProvider)).toMatchObject({ status: 'canceled' });
      if (type === 'ADYEN') expect(adyen.payment(atProvider)).toMatchObject({ cancelled: true });
    });

    it('refunds part of a captured charge', async () => {
      const charge = await cardCharge(at().merchantId, 9_000, approved());
      expect(charge.body).toMatchObject({ status: 'authorized', capturedAmount: 9_000 });
      const refunded = await api<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: { amount: 4_000 } });
      expect(refunded.status).toBe(201);
      if (type === 'ADYEN') expect(refunded.body.status).toBe('refund_pending');
      const after =
        type === 'ADYEN' ? await until(charge.body.id, 'the refund settled by the notification Adyen posts', (c) => c.refundedAmount === 4_000 && c.status === 'authorized') : refunded.body;
      expect(after).toMatchObject({ status: 'authorized', capturedAmount: 9_000, refundedAmount: 4_000 });
      expect(chain(after)).toEqual([
        [type, 'authorization', 'success'],
        [type, 'refund', 'success'],
      ]);
      const atProvider = transactionOf(after);
      if (type === 'PAGARME') expect(pagarme.charge(atProvider)).toMatchObject({ canceled_amount: 4_000 });
      if (type === 'MERCADOPAGO') expect(mercadopago.payment(atProvider)).toMatchObject({ refundedAmount: 4_000 });
      if (type === 'STRIPE') expect(stripe.paymentIntent(atProvider)).toMatchObject({ latest_charge: { amount_refunded: 4_000 } });
      if (type === 'ADYEN') expect(adyen.payment(atProvider)).toMatchObject({ refundedAmount: 4_000 });
    });

    it('maps a documented refusal to its decline code', async () => {
      // Pagar.me's failure card (ABECS 05); Mercado Pago's FUND holder; Stripe's insufficient_funds card; Adyen's NOT_ENOUGH_BALANCE holder (12).
      const refusing: Record<typeof type, { card: Json; declinedCode: string }> = {
        PAGARME: { card: { ...cards.PAGARME.approved, cardNumber: '4000000000000028' }, declinedCode: 'generic' },
        MERCADOPAGO: { card: { ...cards.MERCADOPAGO.approved, cardHolderName: 'FUND Ana Souza' }, declinedCode: 'insufficient_funds' },
        STRIPE: { card: { ...cards.STRIPE.approved, cardNumber: '4000000000009995' }, declinedCode: 'insufficient_funds' },
        ADYEN: { card: { ...cards.ADYEN.approved, cardHolderName: 'NOT_ENOUGH_BALANCE' }, declinedCode: 'insufficient_funds' },
      };
      const charge = await cardCharge(at().merchantId, 2_000, refusing[type].card);
      expect(charge.status).toBe(201);
      expect(charge.body.transactionRequests[0]).toMatchObject({ providerId: at().providerId, providerType: type, requestStatus: 'declined', declinedCode: refusing[type].declinedCode });
      // An insufficient balance is final: the charge fails with it and no other provider is tried. (A generic refusal,
      // Pagar.me's, is a soft decline the cascade may take to the next provider, which answers for the charge then.)
      if (refusing[type].declinedCode === 'insufficient_funds') {
        expect(charge.body).toMatchObject({ status: 'failed', declinedCode: 'insufficient_funds' });
        expect(chain(charge.body)).toEqual([[type, 'authorization', 'declined']]);
      }
    });

    it('does not fail over when the provider does not answer in time (the sale may be made): the charge is pending there', async () => {
      provider().stall(true);
      try {
        // A documented test card of Adyen's, which SANDBOX approves too (it declines numbers ending 2, as some test cards of the others do).
        const charge = await cardCharge(at().merchantId, 5_500, { ...approved(), cardNumber: '4111111111111111' });
        expect(charge.status).toBe(201);
        // Neither the sale nor the lookup after it is answered: the outcome is unknown, and no second sale is made.
        expect(charge.body).toMatchObject({ status: 'pending', providerId: at().providerId });
        expect(charge.body.transactionRequests.map((r) => [r.providerId, r.providerType, r.requestStatus])).toEqual([[at().providerId, type, 'processing']]);
      } finally {
        provider().stall(false);
      }
    }, 30_000);

    it('reaches the provider once for a POST retried with the same X-Idempotency-Key', async () => {
      const before = provider().created();
      const headers = { 'X-Idempotency-Key': `psp-${type}-${STARTED_AT.getTime()}` };
      const first = await cardCharge(at().merchantId, 7_100, approved(), { headers });
      const second = await cardCharge(at().merchantId, 7_100, approved(), { headers });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ status: 'authorized', providerId: at().providerId });
      expect(second.body.id).toBe(first.body.id);
      expect(chain(second.body)).toEqual([[type, 'authorization', 'success']]);
      expect(provider().created()).toBe(before + 1);
    });
  });

  describe('notifications posted to the gateway', () => {
    it("Pagar.me: a card still processing is authorized by the hook Pagar.me posts; the same hook twice more changes nothing", async () => {
      const charge = await cardCharge(alone.PAGARME!.merchantId, 1_800, { ...cards.PAGARME.approved, cardNumber: '4000000000000036' });
      expect(charge.body).toMatchObject({ status: 'pending', providerId: alone.PAGARME!.providerId });
      const chargeId = charge.body.transactionRequests[0]!.transactionId!;
      expect(pagarme.charge(chargeId)).toMatchObject({ status: 'processing' });

      await pagarme.settle(chargeId);
      const delivered = pagarmeDeliveries.filter((d) => d.hook.type === 'charge.paid' && d.hook.data.id === chargeId);
      expect(delivered.map((d) => d.status)).toEqual([200]);
      const authorized = await until(charge.body.id, 'the charge authorized by the hook', (c) => c.status === 'authorized');
      expect(authorized).toMatchObject({ status: 'authorized', capturedAmount: 1_800 });

      for (let i = 0; i < 2; i++) expect((await notify(alone.PAGARME!.providerId, JSON.stringify(delivered[0]!.hook))).status).toBe(200);
      const after = await read(charge.body.id);
      expect(after).toEqual(authorized);
    });

    it('Pagar.me: a hook that arrives before the synchronous answer is held and applied once the charge is there', async () => {
      const heldLines = () => platform.output().split('\n').filter((line) => line.includes('named a transaction of no charge of its entry yet: held') && line.includes(alone.PAGARME!.providerId)).length;
      const heldBefore = heldLines();
      sequence.length = 0;
      settleOnOrder = true;
      pagarme.setLatency(2_000);
      let charge: ApiResponse<Charge>;
      try {
        charge = await cardCharge(alone.PAGARME!.merchantId, 2_300, { ...cards.PAGARME.approved, cardNumber: '4000000000000036' });
        sequence.push(`charge ${charge.body.status}`);
      } finally {
        settleOnOrder = false;
        pagarme.setLatency(0);
      }
      // The gateway took the paid hook while Pagar.me's answer was still on its way; the charge was recorded pending.
      expect(sequence).toEqual(['notification 200', 'charge pending']);
      expect(heldLines()).toBe(heldBefore + 1);
      const authorized = await until(charge.body.id, 'the held hook applied to its charge', (c) => c.status === 'authorized');
      expect(authorized).toMatchObject({ capturedAmount: 2_300, providerId: alone.PAGARME!.providerId });
    }, 40_000);

    it('Mercado Pago: a payment in review is authorized by its signed notification; replayed twice, nothing changes', async () => {
      const charge = await cardCharge(alone.MERCADOPAGO!.merchantId, 2_700, { ...cards.MERCADOPAGO.approved, cardHolderName: 'CONT Ana Souza' });
      expect(charge.body).toMatchObject({ status: 'pending', providerId: alone.MERCADOPAGO!.providerId });
      const paymentId = charge.body.transactionRequests[0]!.transactionId!;
      mercadopago.review(paymentId, true);
      const notification = mercadopago.notification(paymentId, 'payment.updated');
      const query = `?${new URLSearchParams(notification.query).toString()}`;
      const posted = await notify(alone.MERCADOPAGO!.providerId, notification.rawBody.toString('utf8'), notification.headers, query);
      expect(posted.status).toBe(200);
      const authorized = await until(charge.body.id, 'the payment authorized by its notification', (c) => c.status === 'authorized');
      expect(authorized).toMatchObject({ status: 'authorized', capturedAmount: 2_700 });
      for (let i = 0; i < 2; i++) expect((await notify(alone.MERCADOPAGO!.providerId, notification.rawBody.toString('utf8'), notification.headers, query)).status).toBe(200);
      expect(await read(charge.body.id)).toEqual(authorized);
    });

    it('Stripe: a Pix is authorized by the signed event Stripe posts to the gateway; the same event twice more changes nothing', async () => {
      const charge = await pixCharge(alone.STRIPE!.merchantId, 2_500);
      expect(charge.body).toMatchObject({ status: 'pending', providerId: alone.STRIPE!.providerId });
      const intentId = charge.body.transactionRequests[0]!.transactionId!;
      await stripe.payPix(intentId);
      await stripe.flush();
      const delivered = stripe.events().filter((e) => e.event.type === 'payment_intent.succeeded' && e.event.data.object.id === intentId);
      expect(delivered.map((d) => d.status)).toEqual([200]);
      const authorized = await until(charge.body.id, 'the Pix authorized by its event', (c) => c.status === 'authorized');
      expect(authorized.amount).toBe(2_500);
      for (let i = 0; i < 2; i++) expect((await notify(alone.STRIPE!.providerId, delivered[0]!.payload, { 'stripe-signature': delivered[0]!.signature })).status).toBe(200);
      expect(await read(charge.body.id)).toEqual(authorized);
    });

    it("Adyen: the signed REFUND notification replayed twice changes nothing", async () => {
      const charge = await cardCharge(alone.ADYEN!.merchantId, 6_000, { ...cards.ADYEN.approved });
      expect(charge.body.status).toBe('authorized');
      const psp = transactionOf(charge.body);
      await api('POST', `/v1/charges/${charge.body.id}/void`, { auth: client, body: { amount: 1_500 } });
      const settled = await until(charge.body.id, 'the refund settled by its notification', (c) => c.refundedAmount === 1_500);
      await adyen.idle();
      const refund = adyen.deliveries.filter((d) => {
        const item = d.body.notificationItems[0]!.NotificationRequestItem;
        return item.eventCode === 'REFUND' && item.originalReference === psp;
      });
      expect(refund.map((d) => d.status)).toEqual([200]);
      for (let i = 0; i < 2; i++) {
        const again = await notify(alone.ADYEN!.providerId, JSON.stringify(refund[0]!.body));
        expect(again.status).toBe(200);
        expect(again.body).toEqual({ notificationResponse: '[accepted]' });
      }
      const after = await read(charge.body.id);
      expect(after).toMatchObject({ status: 'authorized', refundedAmount: 1_500 });
      expect(after.transactionRequests).toEqual(settled.transactionRequests);
    });
  });

  describe('routing', () => {
    it('keeps a charge that Pagar.me does not answer pending at Pagar.me, Mercado Pago never asked (the order may exist)', async () => {
      const before = mercadopago.paymentsCreated;
      pagarme.stall(true);
      try {
        const charge = await cardCharge(pagarmeThenMercadoPago.merchantId, 3_100, { ...cards.MERCADOPAGO.approved });
        expect(charge.status).toBe(201);
        expect(charge.body).toMatchObject({ status: 'pending', providerId: pagarmeThenMercadoPago.pagarme });
        expect(charge.body.transactionRequests.map((r) => [r.providerId, r.providerType, r.requestStatus])).toEqual([[pagarmeThenMercadoPago.pagarme, 'PAGARME', 'processing']]);
      } finally {
        pagarme.stall(false);
      }
      expect(mercadopago.paymentsCreated).toBe(before);
    }, 30_000);

    it('skips Stripe for a boleto (recorded, never called) and takes it at SANDBOX', async () => {
      const requestsBefore = stripe.paymentIntentsCreated();
      const due = new Date(STARTED_AT.getTime() + 5 * 86_400_000).toISOString().slice(0, 10);
      const charge = await api<Charge>('POST', '/v1/charges', {
        auth: client,
        body: { merchantId: alone.STRIPE!.merchantId, amount: 7_700, paymentMethod: { paymentType: 'boleto', expiresDate: due }, paymentSource: { sourceType: 'customer', customerId } },
      });
      expect(charge.status).toBe(201);
      expect(charge.body).toMatchObject({ providerId: alone.STRIPE!.sandbox });
      expect(charge.body.transactionRequests.map((r) => [r.providerId, r.providerType, r.requestStatus])).toEqual([
        [alone.STRIPE!.providerId, 'STRIPE', 'failed'],
        [alone.STRIPE!.sandbox, 'SANDBOX', 'success'],
      ]);
      expect(charge.body.transactionRequests[0]!.message).toBe('skipped: STRIPE does not take boleto');
      expect(stripe.paymentIntentsCreated()).toBe(requestsBefore);
    });
  });

  describe('cross-client and signatures', () => {
    it("changes nothing of a client's charge when another client's Mercado Pago entry is sent its signed notification", async () => {
      const charge = await cardCharge(alone.MERCADOPAGO!.merchantId, 3_300, { ...cards.MERCADOPAGO.approved, cardHolderName: 'CONT Ana Souza' });
      expect(charge.body.status).toBe('pending');
      const paymentId = charge.body.transactionRequests[0]!.transactionId!;
      mercadopago.review(paymentId, true);
      const notification = mercadopago.notification(paymentId, 'payment.updated');
      const query = `?${new URLSearchParams(notification.query).toString()}`;
      // Client B holds an entry over the same Mercado Pago account (the same webhook secret): the signature verifies.
      const theirs = await merchant(other, 'Loja Outra', [pspEntry('MERCADOPAGO', 1)]);
      const posted = await notify(theirs.ids[0]!, notification.rawBody.toString('utf8'), notification.headers, query);
      expect(posted.status).toBe(200);
      expect((await read(charge.body.id)).status).toBe('pending');
      expect((await api('GET', `/v1/charges/${charge.body.id}`, { auth: other })).status).toBe(404);
      // Posted to the entry the charge was made through, the same notification is applied.
      expect((await notify(alone.MERCADOPAGO!.providerId, notification.rawBody.toString('utf8'), notification.headers, query)).status).toBe(200);
      expect((await read(charge.body.id)).status).toBe('authorized');
    });

    it('refuses with 401 a notification whose signature does not verify (Mercado Pago, Stripe, Adyen), and nothing changes', async () => {
      const charge = await cardCharge(alone.MERCADOPAGO!.merchantId, 3_400, { ...cards.MERCADOPAGO.approved, cardHolderName: 'CONT Ana Souza' });
      const paymentId = charge.body.transactionRequests[0]!.transactionId!;
      mercadopago.review(paymentId, true);
      const notification = mercadopago.notification(paymentId, 'payment.updated');
      const query = `?${new URLSearchParams(notification.query).toString()}`;
      const signature = notification.headers['x-signature']!;
      const forged = signature.replace(/v1=([0-9a-f])/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`);
      expect(forged).not.toBe(signature);
      const refused = await notify(alone.MERCADOPAGO!.providerId, notification.rawBody.toString('utf8'), { ...notification.headers, 'x-signature': forged }, query);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: { code: 401 } });
      expect((await read(charge.body.id)).status).toBe('pending');

      const pix = await pixCharge(alone.STRIPE!.merchantId, 1_200);
      const intentId = pix.body.transactionRequests[0]!.transactionId!;
      const event = JSON.stringify({ id: 'evt_forged0000000001', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: intentId, object: 'payment_intent', status: 'succeeded' } } });
      const badStripe = await notify(alone.STRIPE!.providerId, event, { 'stripe-signature': stripe.sign(event, 'whsec_NotTheEndpointSecret0001') });
      expect(badStripe.status).toBe(401);
      expect((await read(pix.body.id)).status).toBe('pending');

      const held = await cardCharge(alone.ADYEN!.merchantId, 1_300, { ...cards.ADYEN.approved }, { capture: false });
      const psp = transactionOf(held.body);
      expect(held.body.status).toBe('pre_authorized');
      await adyen.idle();
      // Adyen's signed AUTHORISATION notification of that payment, turned into a CANCELLATION: its HMAC no longer verifies.
      const authorisation = adyen.notifications.find((n) => {
        const item = n.notificationItems[0]!.NotificationRequestItem;
        return item.eventCode === 'AUTHORISATION' && item.pspReference === psp;
      });
      expect(authorisation).toBeDefined();
      const item = authorisation!.notificationItems[0]!.NotificationRequestItem;
      const tampered: AdyenNotification = { ...authorisation!, notificationItems: [{ NotificationRequestItem: { ...item, eventCode: 'CANCELLATION', originalReference: psp } }] };
      const badAdyen = await notify(alone.ADYEN!.providerId, JSON.stringify(tampered));
      expect(badAdyen.status).toBe(401);
      expect((await read(held.body.id)).status).toBe('pre_authorized');
      const secrets = [DEMO_ACCOUNTS.mercadopago.webhookSecret, DEMO_ACCOUNTS.stripe.webhookSecret, DEMO_ACCOUNTS.adyen.hmacKey];
      expect(secrets.filter((s) => JSON.stringify([refused.body, badStripe.body, badAdyen.body]).includes(s))).toEqual([]);
    });
  });

  it('never shows a PSP key, a webhook secret or a card number in an answer or a log line', () => {
    const secrets = [
      DEMO_ACCOUNTS.pagarme.secretKey,
      DEMO_ACCOUNTS.mercadopago.accessToken,
      DEMO_ACCOUNTS.mercadopago.webhookSecret,
      DEMO_ACCOUNTS.stripe.secretKey,
      DEMO_ACCOUNTS.stripe.webhookSecret,
      DEMO_ACCOUNTS.adyen.apiKey,
      DEMO_ACCOUNTS.adyen.hmacKey,
      ...new Set(Object.values(cards).map((c) => c.approved.cardNumber)),
      '4000000000000036',
      '4000000000009995',
    ];
    const logs = platform.output();
    expect(logs).toContain('/v1/provider-notifications/');
    expect(answers.length).toBeGreaterThan(50);
    const text = answers.join('\n');
    expect(secrets.filter((secret) => logs.includes(secret)).map((secret) => secret.slice(0, 4))).toEqual([]);
    expect(secrets.filter((secret) => text.includes(secret)).map((secret) => secret.slice(0, 4))).toEqual([]);
  });
});
