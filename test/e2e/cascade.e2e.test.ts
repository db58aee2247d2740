import { Client } from 'pg';
import { DEMO_ACCOUNTS, startProviderSimulators, type ProviderSimulators } from '@platform/devstack';
import type { CieloSimulator, RunningRedeSimulator } from '@platform/simulators';
import { cardNumberEnding, eventually } from '@platform/testkit';
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { WebhookReceiver, type Delivered } from './receiver';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

/**
 * Cascading through the gateway, against Cielo's and e.Rede's simulators: a soft decline at Cielo (Simulado card
 * ending 2, return code 05 "Not Authorized", retry_other_provider) approved at Rede in one charge, with one
 * idempotency record and one webhook of each kind; a hard decline (ending 3, return code 57, do_not_retry) never sent
 * to Rede; a Visa card past its brand's 15 failed attempts in 30 days not sent to Rede either.
 */

type Json = Record<string, unknown>;
interface TransactionRequest {
  providerId: string | null;
  providerType: string;
  requestType: string;
  requestStatus: string;
  declinedCode: string | null;
  routingReason?: string | null;
}
interface Charge {
  id: string;
  status: string;
  providerId: string | null;
  declinedCode: string | null;
  transactionRequests: TransactionRequest[];
}
interface MerchantAnswer {
  id: string;
  providers: Array<{ id: string; priority: number }>;
}
interface PublicEvent {
  id: string;
  object: string;
  event: string;
  data: { id: string; status?: string };
}

class Receiver extends WebhookReceiver<Delivered> {
  protected receive(request: Delivered, res: ServerResponse): Delivered {
    res.statusCode = 200;
    res.end();
    return request;
  }
}

/** The simulators' clock, held still at the suite's start. */
const STARTED_AT = new Date();
const clock = () => STARTED_AT;
const expiration = `12/${STARTED_AT.getUTCFullYear() + 5}`;
/** A Simulado card (Visa BIN 411111): Cielo's sandbox answers by the last digit; e.Rede's simulator approves it. */
const simulado = (lastDigit: number) => ({ cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(lastDigit), cardCvv: '123', cardExpirationDate: expiration });
const authorizations = (charge: Charge) => charge.transactionRequests.filter((r) => r.requestType === 'authorization');

describe('cascading through the gateway (Cielo, then Rede)', () => {
  let simulators: ProviderSimulators;
  let cielo: CieloSimulator;
  let rede: RunningRedeSimulator;
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let endpoint: string;
  const receiver = new Receiver();
  /** Cielo (1), Rede (2). */
  let routed: { merchantId: string; cielo: string; rede: string };
  /** Cielo alone: where a card's declines pile up. */
  let cieloAlone: { merchantId: string };

  const merchant = async (name: string, providers: Json[]) => {
    const created = await api<MerchantAnswer>('POST', '/v1/merchants', { auth: client, body: { mcc: '5999', name, providers } });
    if (created.status !== 201) throw new Error(`merchant ${name}: ${created.status} ${JSON.stringify(created.body)}`);
    return { merchantId: created.body.id, ids: [...created.body.providers].sort((a, b) => a.priority - b.priority).map((p) => p.id) };
  };
  const cieloEntry = { name: 'Cielo', priority: 1, credentials: { type: 'CIELO', ...DEMO_ACCOUNTS.cielo, environment: 'sandbox' } };
  const redeEntry = { name: 'Rede', priority: 2, credentials: { type: 'REDE', ...DEMO_ACCOUNTS.rede, environment: 'sandbox' } };
  const cardCharge = (merchantId: string, amount: number, source: Json, headers?: Record<string, string>) =>
    api<Charge>('POST', '/v1/charges', {
      auth: client,
      ...(headers ? { headers } : {}),
      body: { merchantId, amount, currency: 'BRL', paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'card', card: source } },
    });
  const outboxOf = async (chargeId: string) => {
    const db = new Client({ connectionString: platform.databaseUrl('payments') });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; subject: string }>(`SELECT id, subject FROM outbox WHERE payload->'data'->>'id' = $1 ORDER BY seq`, [chargeId]);
      return rows;
    } finally {
      await db.end();
    }
  };
  const idempotencyRecords = async (key: string) => {
    const db = new Client({ connectionString: platform.databaseUrl('payments') });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE client_id = $1 AND key = $2', [client.clientId, key]);
      return rows[0]!.n;
    } finally {
      await db.end();
    }
  };
  const parse = (r: Delivered) => JSON.parse(r.body) as PublicEvent;

  beforeAll(async () => {
    await receiver.start();
    simulators = await startProviderSimulators({ env: {}, clock });
    if (!simulators.cielo || !simulators.rede) throw new Error(`simulators not started: ${simulators.running.join(', ')}`);
    cielo = simulators.cielo;
    rede = simulators.rede;
    platform = await startTestPlatform('e2ecascade', { ...simulators.env, PROVIDER_TIMEOUT_MS: '1500' });
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Cascade Store');
    endpoint = receiver.endpoint();
    const webhook = await api('POST', '/v1/webhooks', { auth: client, body: { event: '*', endpoint, version: 1.1, status: true } });
    if (webhook.status !== 201) throw new Error(`webhook: ${webhook.status} ${JSON.stringify(webhook.body)}`);
    const first = await merchant('Loja Cielo e Rede', [cieloEntry, redeEntry]);
    routed = { merchantId: first.merchantId, cielo: first.ids[0]!, rede: first.ids[1]! };
    cieloAlone = { merchantId: (await merchant('Loja Cielo', [cieloEntry])).merchantId };
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await simulators?.close();
    await receiver.stop();
  });

  it("moves a soft decline at Cielo on to Rede, which approves: one charge, one idempotency record, one webhook of each kind", async () => {
    const cieloBefore = cielo.salesCreated;
    const redeBefore = rede.authorizations();
    const key = randomUUID();
    const source = simulado(2);
    const charge = await cardCharge(routed.merchantId, 6_400, source, { 'x-idempotency-key': key });
    expect(charge.status).toBe(201);
    expect(charge.body).toMatchObject({ status: 'authorized', providerId: routed.rede, declinedCode: null });
    expect(authorizations(charge.body).map((r) => [r.providerId, r.requestStatus, r.declinedCode, r.routingReason])).toEqual([
      [routed.cielo, 'declined', 'generic', 'priority'],
      [routed.rede, 'success', null, 'priority; cascade after CIELO declined generic (retry_other_provider)'],
    ]);
    expect([cielo.salesCreated - cieloBefore, rede.authorizations() - redeBefore]).toEqual([1, 1]);

    // The same POST again: the same charge, no provider asked again, one idempotency record.
    const again = await cardCharge(routed.merchantId, 6_400, source, { 'x-idempotency-key': key });
    expect(again.body.id).toBe(charge.body.id);
    expect([cielo.salesCreated - cieloBefore, rede.authorizations() - redeBefore]).toEqual([1, 1]);
    expect(await idempotencyRecords(key)).toBe(1);

    // One event per kind in the outbox, each delivered to the webhook, none twice.
    const events = await outboxOf(charge.body.id);
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((e) => e.subject)).size).toBe(events.length);
    const forCharge = () => receiver.at(endpoint).filter((r) => parse(r).object === 'transaction' && parse(r).data.id === charge.body.id);
    await eventually(async () => (forCharge().length >= events.length ? true : undefined), 'the webhooks of the charge', { timeoutMs: 30_000 });
    const delivered = forCharge().map(parse);
    expect(delivered.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(delivered.filter((e) => e.event === 'authorized')).toHaveLength(1);
  });

  it('never sends a hard decline at Cielo (return code 57) to Rede', async () => {
    const redeBefore = rede.authorizations();
    const charge = await cardCharge(routed.merchantId, 2_000, simulado(3));
    expect(charge.status).toBe(201);
    expect(charge.body).toMatchObject({ status: 'failed', providerId: routed.cielo, declinedCode: 'transaction_not_allowed' });
    expect(authorizations(charge.body).map((r) => [r.providerType, r.requestStatus])).toEqual([['CIELO', 'declined']]);
    expect(rede.authorizations()).toBe(redeBefore);
  });

  it("does not send a Visa card past 15 failed attempts in 30 days to Rede", async () => {
    const source = simulado(2);
    for (let i = 0; i < 15; i++) {
      const declined = await cardCharge(cieloAlone.merchantId, 1_000 + i, source);
      expect([i, declined.body.status, declined.body.declinedCode]).toEqual([i, 'failed', 'generic']);
    }
    const redeBefore = rede.authorizations();
    const charge = await cardCharge(routed.merchantId, 3_000, source);
    expect(charge.body).toMatchObject({ status: 'failed', providerId: routed.cielo, declinedCode: 'generic' });
    expect(authorizations(charge.body)).toHaveLength(1);
    expect(rede.authorizations()).toBe(redeBefore);

    // Another card of the same client still cascades.
    const fresh = await cardCharge(routed.merchantId, 3_000, simulado(2));
    expect(fresh.body).toMatchObject({ status: 'authorized', providerId: routed.rede });
  });
});
