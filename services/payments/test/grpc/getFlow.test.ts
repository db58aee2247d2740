import { randomUUID } from 'node:crypto';
import { failureOf, startPayments, type RunningPayments } from '../support/payments';
import { flowRequest, merchantForFlows } from '../support/flows';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('GetFlow', () => {
  it('returns the flow of the client', async () => {
    const clientId = randomUUID();
    const { merchant, a } = await merchantForFlows(running, clientId);
    const flow = await running.client.createFlow(flowRequest(clientId, merchant.id, { defaultRoute: [a] }));
    expect(await running.client.getFlow({ clientId, id: flow.id })).toEqual(flow);
  });

  it('answers not_found for unknown, malformed and foreign flows', async () => {
    const owner = randomUUID();
    const { merchant, a } = await merchantForFlows(running, owner);
    const foreign = await running.client.createFlow(flowRequest(owner, merchant.id, { defaultRoute: [a] }));
    for (const id of [randomUUID(), 'nope', "' OR 1=1 --", foreign.id]) {
      expect((await failureOf(running.client.getFlow({ clientId: randomUUID(), id }))).kind).toBe('not_found');
    }
  });
});
