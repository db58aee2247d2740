import { randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { failureOf, startPayments, type RunningPayments } from '../support/payments';
import { savedCard } from '../support/vault';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('ListCards', () => {
  const clientId = randomUUID();
  const customerId = randomUUID();
  const cards: payments.Card[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 12; i++) cards.push(await savedCard(running, clientId));
    for (const i of [3, 7]) cards[i] = await running.client.assignCardToCustomer({ clientId, cardId: cards[i]!.id, customerId });
  });

  it('lists newest first with page meta', async () => {
    const page = await running.client.listCards({ clientId, ids: [] });
    expect(page.items).toEqual(cards.slice(2).reverse());
    expect(page.meta).toEqual({ itemCount: 10, totalItems: 12, itemsPerPage: 10, totalPages: 2, currentPage: 1 });
    const asc = await running.client.listCards({ clientId, ids: [], page: { page: 2, limit: 5, sort: 'ASC' } });
    expect(asc.items).toEqual(cards.slice(5, 10));
  });

  it('filters by customer', async () => {
    expect((await running.client.listCards({ clientId, customerId, ids: [] })).items).toEqual([cards[7], cards[3]]);
    expect((await running.client.listCards({ clientId, customerId: randomUUID(), ids: [] })).items).toEqual([]);
    expect((await running.client.listCards({ clientId, customerId: 'bad', ids: [] })).items).toEqual([]);
  });

  it('filters by ids, ignoring malformed ones', async () => {
    const page = await running.client.listCards({ clientId, ids: [cards[0]!.id, cards[5]!.id, 'bad'] });
    expect(page.items).toEqual([cards[5], cards[0]]);
    expect((await running.client.listCards({ clientId, ids: ['bad'] })).items).toEqual([]);
    expect((await running.client.listCards({ clientId, customerId, ids: [cards[3]!.id, cards[4]!.id] })).items).toEqual([cards[3]]);
  });

  it('never shows a card number or CVV field', async () => {
    const page = await running.client.listCards({ clientId, ids: [] });
    for (const card of page.items) expect(Object.keys(card).sort()).toEqual(Object.keys(cards[0]!).sort());
    expect(Object.keys(cards[0]!).some((k) => /number|cvv$/i.test(k))).toBe(false);
  });

  it("never lists another client's cards", async () => {
    const stranger = randomUUID();
    expect((await running.client.listCards({ clientId: stranger, ids: [] })).meta?.totalItems).toBe(0);
    expect((await running.client.listCards({ clientId: stranger, ids: cards.map((c) => c.id) })).items).toEqual([]);
    expect((await running.client.listCards({ clientId: stranger, customerId, ids: [] })).items).toEqual([]);
  });

  it('refuses a client id that is not a UUID', async () => {
    expect((await failureOf(running.client.listCards({ clientId: 'x', ids: [] }))).kind).toBe('validation');
  });
});
