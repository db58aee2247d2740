import { randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { failureOf, merchantRequest, startPayments, type RunningPayments } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('ListMerchants', () => {
  const clientId = randomUUID();
  const created: payments.Merchant[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 12; i++) created.push(await running.client.createMerchant(merchantRequest(clientId, { name: `Loja ${i}` })));
  });

  it('lists newest first with 10 per page by default, providers included', async () => {
    const page = await running.client.listMerchants({ clientId });
    expect(page.items).toEqual(created.slice(2).reverse());
    expect(page.meta).toEqual({ itemCount: 10, totalItems: 12, itemsPerPage: 10, totalPages: 2, currentPage: 1 });
  });

  it('lists oldest first when sort is ASC, and later pages', async () => {
    const asc = await running.client.listMerchants({ clientId, page: { page: 1, limit: 3, sort: 'ASC' } });
    expect(asc.items.map((m) => m.id)).toEqual(created.slice(0, 3).map((m) => m.id));
    const last = await running.client.listMerchants({ clientId, page: { page: 3, limit: 5, sort: '' } });
    expect(last.items.map((m) => m.id)).toEqual([created[1]!.id, created[0]!.id]);
    expect(last.meta).toEqual({ itemCount: 2, totalItems: 12, itemsPerPage: 5, totalPages: 3, currentPage: 3 });
  });

  it('leaves out deleted merchants', async () => {
    const other = randomUUID();
    const kept = await running.client.createMerchant(merchantRequest(other));
    const removed = await running.client.createMerchant(merchantRequest(other));
    await running.client.deleteMerchant({ clientId: other, id: removed.id });
    const page = await running.client.listMerchants({ clientId: other });
    expect(page.items).toEqual([kept]);
    expect(page.meta?.totalItems).toBe(1);
  });

  it("never lists another client's merchants", async () => {
    const page = await running.client.listMerchants({ clientId: randomUUID() });
    expect(page.items).toEqual([]);
    expect(page.meta?.totalItems).toBe(0);
  });

  it('refuses a client id that is not a UUID', async () => {
    expect((await failureOf(running.client.listMerchants({ clientId: 'x' }))).kind).toBe('validation');
  });
});
