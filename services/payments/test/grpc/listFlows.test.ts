import { randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { failureOf, startPayments, type RunningPayments } from '../support/payments';
import { flowRequest, merchantForFlows } from '../support/flows';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('ListFlows', () => {
  const clientId = randomUUID();
  const flows: payments.Flow[] = [];
  let first: string;
  let second: string;

  beforeAll(async () => {
    const m1 = await merchantForFlows(running, clientId);
    const m2 = await merchantForFlows(running, clientId);
    first = m1.merchant.id;
    second = m2.merchant.id;
    for (const paymentMethod of ['credit', 'debit', 'pix']) flows.push(await running.client.createFlow(flowRequest(clientId, first, { paymentMethod, defaultRoute: [m1.a] })));
    flows.push(await running.client.createFlow(flowRequest(clientId, second, { defaultRoute: [m2.b] })));
  });

  it('lists newest first with page meta', async () => {
    const page = await running.client.listFlows({ clientId, page: { page: 1, limit: 3, sort: '' } });
    expect(page.items).toEqual([flows[3], flows[2], flows[1]]);
    expect(page.meta).toEqual({ itemCount: 3, totalItems: 4, itemsPerPage: 3, totalPages: 2, currentPage: 1 });
  });

  it('filters by merchant', async () => {
    expect((await running.client.listFlows({ clientId, merchantId: first, page: { page: 1, limit: 10, sort: 'ASC' } })).items).toEqual(flows.slice(0, 3));
    expect((await running.client.listFlows({ clientId, merchantId: second })).items).toEqual([flows[3]]);
    expect((await running.client.listFlows({ clientId, merchantId: 'bad' })).items).toEqual([]);
    expect((await running.client.listFlows({ clientId, merchantId: randomUUID() })).items).toEqual([]);
    expect((await running.client.listFlows({ clientId, merchantId: '' })).meta?.totalItems).toBe(4);
  });

  it("never lists another client's flows", async () => {
    const stranger = randomUUID();
    expect((await running.client.listFlows({ clientId: stranger })).meta?.totalItems).toBe(0);
    expect((await running.client.listFlows({ clientId: stranger, merchantId: first })).items).toEqual([]);
  });

  it('refuses a client id that is not a UUID', async () => {
    expect((await failureOf(running.client.listFlows({ clientId: 'x' }))).kind).toBe('validation');
  });
});
