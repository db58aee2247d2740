import { randomUUID } from 'node:crypto';
import { failureOf, merchantRequest, outboxOf, startPayments, type RunningPayments } from '../support/payments';
import { flowRequest, merchantForFlows } from '../support/flows';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

async function flowRows(clientId: string): Promise<unknown[]> {
  return (await running.pool.query('SELECT id FROM flows WHERE client_id = $1', [clientId])).rows;
}

describe('CreateFlow', () => {
  it('creates a flow with ordered rules and a default route', async () => {
    const clientId = randomUUID();
    const { merchant, a, b } = await merchantForFlows(running, clientId);
    const flow = await running.client.createFlow(
      flowRequest(clientId, merchant.id, {
        name: ' Altos valores ',
        paymentMethod: 'CREDIT',
        rules: [
          { when: { amountGte: 100_000, currency: 'brl' }, route: [b, a] },
          { when: { cardBrand: 'Elo', installmentsGte: 6 }, route: [b] },
        ],
        defaultRoute: [a, b],
      }),
    );
    expect(flow).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientId,
      merchantId: merchant.id,
      name: 'Altos valores',
      paymentMethod: 'credit',
      rules: [
        { when: { amountGte: 100_000, currency: 'BRL' }, route: [b, a] },
        { when: { cardBrand: 'elo', installmentsGte: 6 }, route: [b] },
      ],
      defaultRoute: [a, b],
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await running.client.getFlow({ clientId, id: flow.id })).toEqual(flow);
    const events = await outboxOf(running.pool, clientId);
    expect(events.map((e) => e.subject)).toEqual(['payments.merchant.created', 'payments.flow.created']);
    expect(events[1]!.payload.data).toMatchObject({ id: flow.id, merchantId: merchant.id, paymentMethod: 'credit' });
  });

  it('answers conflict flow_exists for a second flow of the same payment method', async () => {
    const clientId = randomUUID();
    const { merchant, a } = await merchantForFlows(running, clientId);
    await running.client.createFlow(flowRequest(clientId, merchant.id, { defaultRoute: [a] }));
    const error = await failureOf(running.client.createFlow(flowRequest(clientId, merchant.id, { paymentMethod: 'credit', defaultRoute: [a] })));
    expect(error.kind).toBe('conflict');
    expect(error.key).toBe('flow_exists');
    expect(await running.client.createFlow(flowRequest(clientId, merchant.id, { paymentMethod: 'debit', defaultRoute: [a] }))).toMatchObject({ paymentMethod: 'debit' });
    expect(await flowRows(clientId)).toHaveLength(2);
  });

  it('lets exactly one of concurrent creates for one method succeed', async () => {
    const clientId = randomUUID();
    const { merchant, a } = await merchantForFlows(running, clientId);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => running.client.createFlow(flowRequest(clientId, merchant.id, { paymentMethod: 'pix', defaultRoute: [a] }))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as { key?: string }).key)).toEqual(Array(4).fill('flow_exists'));
  });

  it('refuses routes that name anything but an active payment provider of the merchant, naming each entry', async () => {
    const clientId = randomUUID();
    const { merchant, a, b, antifraud } = await merchantForFlows(running, clientId);
    const other = await merchantForFlows(running, clientId);
    const foreign = await merchantForFlows(running, randomUUID());
    const error = await failureOf(
      running.client.createFlow(
        flowRequest(clientId, merchant.id, {
          rules: [
            { when: {}, route: [a, other.a] },
            { when: {}, route: [antifraud] },
            { when: {}, route: [b, 'not-an-id', foreign.a] },
          ],
          defaultRoute: [randomUUID()],
        }),
      ),
    );
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field)).toEqual(['rules.0.route.1', 'rules.1.route.0', 'rules.2.route.1', 'rules.2.route.2', 'defaultRoute.0']);
    expect(await flowRows(clientId)).toEqual([]);
  });

  it('refuses a malformed flow with a detail per field', async () => {
    const clientId = randomUUID();
    const { merchant, a } = await merchantForFlows(running, clientId);
    const error = await failureOf(
      running.client.createFlow(
        flowRequest(clientId, merchant.id, {
          paymentMethod: 'cash',
          rules: [{ when: { amountGte: 10, amountLte: 5 }, route: [] }, { when: { cardBrand: 'discover' }, route: [a] }],
          defaultRoute: [a, a],
        }),
      ),
    );
    expect(error.details?.map((d) => d.field).sort()).toEqual(['defaultRoute.1', 'paymentMethod', 'rules.0.route', 'rules.0.when.amountLte', 'rules.1.when.cardBrand']);
  });

  it('answers not_found for unknown, malformed, foreign and deleted merchants', async () => {
    const clientId = randomUUID();
    const foreign = await merchantForFlows(running, randomUUID());
    const deleted = await merchantForFlows(running, clientId);
    await running.client.deleteMerchant({ clientId, id: deleted.merchant.id });
    for (const [merchantId, providerId] of [
      [randomUUID(), foreign.a],
      ['bad', foreign.a],
      [foreign.merchant.id, foreign.a],
      [deleted.merchant.id, deleted.a],
    ] as const) {
      expect((await failureOf(running.client.createFlow(flowRequest(clientId, merchantId, { defaultRoute: [providerId] })))).kind).toBe('not_found');
    }
  });

  it('replays the same flow for the same idempotency key', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant(merchantRequest(clientId));
    const request = flowRequest(clientId, merchant.id, { rules: [{ when: { amountLte: 500 }, route: [merchant.providers[0]!.id] }], defaultRoute: [merchant.providers[0]!.id] });
    const idempotencyKey = randomUUID();
    const first = await running.client.createFlow(request, { idempotencyKey });
    expect(await running.client.createFlow(request, { idempotencyKey })).toEqual(first);
    expect(await flowRows(clientId)).toHaveLength(1);
  });
});
