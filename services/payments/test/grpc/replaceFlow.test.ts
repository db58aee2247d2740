import { randomUUID } from 'node:crypto';
import { failureOf, outboxOf, startPayments, type RunningPayments } from '../support/payments';
import { flowRequest, merchantForFlows } from '../support/flows';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('ReplaceFlow', () => {
  it('replaces the flow wholly and keeps it on its merchant', async () => {
    const clientId = randomUUID();
    const { merchant, a, b } = await merchantForFlows(running, clientId);
    const flow = await running.client.createFlow(
      flowRequest(clientId, merchant.id, { name: 'old', rules: [{ when: { amountGte: 1 }, route: [a] }, { when: { currency: 'USD' }, route: [b] }], defaultRoute: [a] }),
    );
    const replaced = await running.client.replaceFlow({
      clientId,
      id: flow.id,
      name: 'new',
      paymentMethod: 'debit',
      rules: [{ when: { cardBrand: 'visa' }, route: [b, a] }],
      defaultRoute: [b],
    });
    expect(replaced).toEqual({
      ...flow,
      name: 'new',
      paymentMethod: 'debit',
      rules: [{ when: { cardBrand: 'visa' }, route: [b, a] }],
      defaultRoute: [b],
      updatedAt: expect.any(Date),
    });
    expect(await running.client.getFlow({ clientId, id: flow.id })).toEqual(replaced);
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.merchant.created', 'payments.flow.created', 'payments.flow.updated']);
  });

  it('answers conflict flow_exists when moving to a payment method that has a flow', async () => {
    const clientId = randomUUID();
    const { merchant, a } = await merchantForFlows(running, clientId);
    const credit = await running.client.createFlow(flowRequest(clientId, merchant.id, { paymentMethod: 'credit', defaultRoute: [a] }));
    await running.client.createFlow(flowRequest(clientId, merchant.id, { paymentMethod: 'debit', defaultRoute: [a] }));
    const error = await failureOf(running.client.replaceFlow({ clientId, id: credit.id, name: '', paymentMethod: 'debit', rules: [], defaultRoute: [a] }));
    expect(error.key).toBe('flow_exists');
    expect((await running.client.getFlow({ clientId, id: credit.id })).paymentMethod).toBe('credit');
  });

  it('refuses providers outside the merchant, naming each entry, and changes nothing', async () => {
    const clientId = randomUUID();
    const { merchant, a, antifraud } = await merchantForFlows(running, clientId);
    const other = await merchantForFlows(running, clientId);
    const flow = await running.client.createFlow(flowRequest(clientId, merchant.id, { defaultRoute: [a] }));
    const error = await failureOf(
      running.client.replaceFlow({ clientId, id: flow.id, name: '', paymentMethod: 'credit', rules: [{ when: {}, route: [a, other.b] }], defaultRoute: [antifraud] }),
    );
    expect(error.details?.map((d) => d.field)).toEqual(['rules.0.route.1', 'defaultRoute.0']);
    expect(await running.client.getFlow({ clientId, id: flow.id })).toEqual(flow);
  });

  it('answers not_found for unknown, malformed and foreign flows', async () => {
    const owner = randomUUID();
    const { merchant, a } = await merchantForFlows(running, owner);
    const foreign = await running.client.createFlow(flowRequest(owner, merchant.id, { defaultRoute: [a] }));
    for (const id of [randomUUID(), 'nope', foreign.id]) {
      expect((await failureOf(running.client.replaceFlow({ clientId: randomUUID(), id, name: '', paymentMethod: 'credit', rules: [], defaultRoute: [a] }))).kind).toBe(
        'not_found',
      );
    }
    expect(await running.client.getFlow({ clientId: owner, id: foreign.id })).toEqual(foreign);
  });
});
