import { randomUUID } from 'node:crypto';
import { ManualClock } from '@platform/testkit';
import {
  ProviderUnavailableError,
  type AuthorizeRequest,
  type AuthorizeResult,
  type OperationResult,
  type PaymentProvider,
  type ProviderCall,
} from '../../src/modules/connectors/domain/types';
import { providerEliminations, routeOrderings } from '../../src/modules/charges/app/metrics';
import { cardCharge } from '../support/charges';
import { startWithProviders, type RunningWithProviders } from '../support/fakeProvider';

/** One adapter for every SUBACQUIRER entry, answering as each entry's apiKey is told to: approve, decline or be down. */
class ScriptedAcquirer implements PaymentProvider {
  readonly type = 'SUBACQUIRER';
  readonly behaviour = new Map<string, 'approve' | 'decline' | 'down'>();
  readonly asked: string[] = [];

  async authorize(_request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    const key = String(call.credentials['apiKey']);
    this.asked.push(key);
    const behaviour = this.behaviour.get(key) ?? 'approve';
    if (behaviour === 'down') throw new ProviderUnavailableError('connection refused');
    if (behaviour === 'decline') return { status: 'declined', declinedCode: 'invalid_number', message: 'invalid card number', transactionId: `tx_${randomUUID()}` };
    return { status: 'authorized', transactionId: `tx_${randomUUID()}`, captured: true, cvvChecked: true };
  }

  async capture(): Promise<OperationResult> {
    return { status: 'success' };
  }

  async cancel(): Promise<OperationResult> {
    return { status: 'success' };
  }

  async refund(): Promise<OperationResult> {
    return { status: 'success' };
  }
}

const acquirer = new ScriptedAcquirer();
const clock = new ManualClock(new Date('2026-03-02T12:00:00Z'));
let running: RunningWithProviders;

beforeAll(async () => {
  // No exploration and every probe taken, so that each charge's order is known; taken out at 2 technical failures of
  // the last 4 attempts, for 60 s.
  running = await startWithProviders([acquirer], clock, {
    ROUTING_EXPLORE_PERCENT: '0',
    ROUTING_PROBE_EVERY: '1',
    ROUTING_ELIMINATION_WINDOW: '4',
    ROUTING_ELIMINATION_PERCENT: '50',
    ROUTING_COOLDOWN_SECONDS: '60',
  });
});

afterAll(async () => {
  await running.stop();
});

/** A merchant with entries a (priority 1) and b (priority 2), and a credit flow whose only rule orders [a, b] by success rate. */
async function merchantWithSuccessRateFlow(): Promise<{ clientId: string; merchantId: string; a: string; b: string; keyA: string; keyB: string }> {
  const clientId = randomUUID();
  const keyA = `sk_a_${randomUUID()}`;
  const keyB = `sk_b_${randomUUID()}`;
  const merchant = await running.client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Teste',
    merchantName: 'Loja Teste',
    merchantUrl: 'https://loja.example.test',
    providers: [
      { name: 'a', priority: 1, credentials: { type: 'SUBACQUIRER', apiKey: keyA }, options: {} },
      { name: 'b', priority: 2, credentials: { type: 'SUBACQUIRER', apiKey: keyB }, options: {} },
    ],
  });
  const a = merchant.providers.find((p) => p.name === 'a')!.id;
  const b = merchant.providers.find((p) => p.name === 'b')!.id;
  await running.client.createFlow({ clientId, merchantId: merchant.id, name: 'by success rate', paymentMethod: 'credit', rules: [{ route: [a, b], mode: 'success_rate' }], defaultRoute: [a, b] });
  return { clientId, merchantId: merchant.id, a, b, keyA, keyB };
}

/** A charge, its outcomes then written (the recorder's flush) so that the next charge is routed on them. */
async function charge(m: { clientId: string; merchantId: string }) {
  const created = await running.client.createCharge(cardCharge(m.clientId, m.merchantId, '4111111111111111'));
  await running.outcomes.flush();
  return {
    charge: created,
    tried: created.transactionRequests.filter((r) => r.requestType === 'authorization').map((r) => r.providerId),
    reason: created.transactionRequests.find((r) => r.requestType === 'authorization')!.routingReason,
  };
}

/** A counter's values by their labels joined with '/', as the service counted so far in this process. */
async function counted(metric: typeof routeOrderings | typeof providerEliminations): Promise<Record<string, number>> {
  const { values } = await metric.get();
  return Object.fromEntries(values.map((v) => [Object.values(v.labels).join('/'), v.value]));
}

async function recentOf(merchantId: string, providerId: string): Promise<string | undefined> {
  await running.outcomes.flush();
  const { rows } = await running.pool.query<{ recent: string }>('SELECT recent FROM provider_outcomes WHERE merchant_id = $1 AND provider_id = $2', [merchantId, providerId]);
  return rows[0]?.recent;
}

describe('success-rate routing through the service', () => {
  it('takes out a provider that fails technically, tries it last while it cools down, then probes it back in', async () => {
    const m = await merchantWithSuccessRateFlow();
    const orderingsBefore = await counted(routeOrderings);
    const eliminationsBefore = await counted(providerEliminations);
    const grew = async (metric: typeof routeOrderings | typeof providerEliminations, before: Record<string, number>) =>
      Object.fromEntries(Object.entries(await counted(metric)).map(([key, value]) => [key, value - (before[key] ?? 0)]).filter(([, d]) => d !== 0));
    acquirer.behaviour.set(m.keyA, 'down');
    acquirer.behaviour.set(m.keyB, 'approve');
    const label = (id: string) => `SUBACQUIRER ${id}`;

    // Two technical failures of a: each charge fails over to b, and a is taken out by the second.
    for (let i = 0; i < 2; i += 1) {
      const first = await charge(m);
      expect(first.tried).toEqual([m.a, m.b]);
      expect(first.charge).toMatchObject({ status: 'authorized', providerId: m.b });
    }
    expect(await recentOf(m.merchantId, m.a)).toBe('tt');
    expect(await recentOf(m.merchantId, m.b)).toBe('aa');

    // Cooling down: b first, a last (never asked, since b approves), until 60 s after it was taken out.
    clock.set(new Date('2026-03-02T12:00:59.999Z'));
    const cooling = await charge(m);
    expect(cooling.tried).toEqual([m.b]);
    expect(cooling.reason).toBe(`flow rule 1; success rate: ${label(m.b)} 100% of 2, ${label(m.a)} 100% of 0; ${label(m.a)} cooling down after 2 technical failures of 2`);

    // Past the cool-down it is probed first; still down, the charge fails over to b and a cools down again.
    clock.set(new Date('2026-03-02T12:01:00Z'));
    const probe = await charge(m);
    expect(probe.tried).toEqual([m.a, m.b]);
    expect(probe.reason).toContain(`${label(m.a)} probed first after 2 technical failures of 2`);
    expect(await recentOf(m.merchantId, m.a)).toBe('ttt');
    clock.set(new Date('2026-03-02T12:01:59.999Z'));
    expect((await charge(m)).reason).toContain(`${label(m.a)} cooling down after 3 technical failures of 3`);
    clock.set(new Date('2026-03-02T12:02:00Z'));

    // Back up: the probes approve, and once fewer than 2 of its last 4 attempts failed (the third) it is in again.
    acquirer.behaviour.set(m.keyA, 'approve');
    for (const expected of ['ttta', 'tttaa', 'tttaaa']) {
      const probed = await charge(m);
      expect(probed.tried).toEqual([m.a]);
      expect(probed.reason).toContain('probed first');
      expect(await recentOf(m.merchantId, m.a)).toBe(expected);
    }
    const back = await charge(m);
    expect(back.tried).toEqual([m.a]);
    expect(back.reason).toBe(`flow rule 1; success rate: ${label(m.a)} 100% of 3, ${label(m.b)} 100% of 5`);
    expect(await recentOf(m.merchantId, m.a)).toBe('tttaaaa');

    // 9 charges: 5 in plain success-rate order (2 before the elimination, 2 while a cooled down, the last one) and
    // 4 probes; a was out for 6 of them.
    expect(await grew(routeOrderings, orderingsBefore)).toEqual({ success_rate: 5, probe: 4 });
    expect(await grew(providerEliminations, eliminationsBefore)).toEqual({ 'SUBACQUIRER/cooling_down': 2, 'SUBACQUIRER/probing': 4 });
  });

  it('orders the route by the approval rates it observed, whatever the flow gave first', async () => {
    const m = await merchantWithSuccessRateFlow();
    acquirer.behaviour.set(m.keyA, 'decline');
    acquirer.behaviour.set(m.keyB, 'approve');

    // a is first while nothing is known, and declines.
    const first = await charge(m);
    expect(first.tried).toEqual([m.a]);
    expect(first.charge).toMatchObject({ status: 'failed', declinedCode: 'invalid_number' });
    expect(first.reason).toBe(`flow rule 1; success rate: SUBACQUIRER ${m.a} 50% of 0, SUBACQUIRER ${m.b} 50% of 0`);

    // Outcomes b earned on other charges of the merchant (as another replica would have recorded them) put it first.
    await running.pool.query(
      `INSERT INTO provider_outcomes (client_id, merchant_id, payment_type, card_brand, provider_id, recent, updated_at) VALUES ($1, $2, 'credit', 'visa', $3, 'aaaaaaaaad', now())`,
      [m.clientId, m.merchantId, m.b],
    );
    const second = await charge(m);
    expect(second.tried).toEqual([m.b]);
    expect(second.charge).toMatchObject({ status: 'authorized', providerId: m.b });
    expect(second.reason).toMatch(new RegExp(`^flow rule 1; success rate: SUBACQUIRER ${m.b} \\d+% of 10, SUBACQUIRER ${m.a} \\d+% of 1$`));
    expect(await recentOf(m.merchantId, m.b)).toBe('aaaaaaaaada');
    expect(await recentOf(m.merchantId, m.a)).toBe('d');

    // A request sent again with its idempotency key is answered its charge and counts once.
    const request = cardCharge(m.clientId, m.merchantId, '4111111111111111');
    const once = await running.client.createCharge(request, { idempotencyKey: `sr-${randomUUID()}` });
    const key = { idempotencyKey: `sr-${randomUUID()}` };
    const keyed = await running.client.createCharge(request, key);
    const replayed = await running.client.createCharge(request, key);
    expect(replayed.id).toBe(keyed.id);
    expect(once.id).not.toBe(keyed.id);
    expect(await recentOf(m.merchantId, m.b)).toBe('aaaaaaaaadaaa');
  });
});
