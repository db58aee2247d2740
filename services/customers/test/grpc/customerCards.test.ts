import { randomUUID } from 'node:crypto';
import { errors } from '@platform/kit';
import type { CardsPort, CardSummary } from '../../src/app/cardsPort';
import { customerRequest, failureOf, startCustomers, type RunningCustomers } from '../support/service';

/** Stands in for payments: cards belong to clients; assignments are recorded. */
function fakeCards() {
  const cards = new Map<string, { clientId: string; card: CardSummary }>();
  const assigned: Array<{ cardId: string; customerId: string }> = [];
  let failAssign = false;
  const directory: CardsPort = {
    getCard: async (clientId, cardId) => {
      const entry = cards.get(cardId);
      if (!entry || entry.clientId !== clientId) throw errors.notFound('Card', cardId);
      return entry.card;
    },
    assignToCustomer: async (_clientId, cardId, customerId) => {
      if (failAssign) throw errors.unavailable('payments is down');
      assigned.push({ cardId, customerId });
    },
    listByIds: async (clientId, ids) => ids.flatMap((id) => (cards.get(id)?.clientId === clientId ? [cards.get(id)!.card] : [])),
  };
  const add = (clientId: string, last4 = '1111') => {
    const id = randomUUID();
    cards.set(id, {
      clientId,
      card: { id, status: 'active', brand: 'visa', cardHolderName: 'Ana', first6digits: '411111', last4digits: last4, expirationMonth: 12, expirationYear: 2035, fingerprint: 'fp', cvvChecked: false, createdAt: new Date() },
    });
    return id;
  };
  return { directory, add, assigned, failNextAssign: (v: boolean) => (failAssign = v) };
}

describe('AddCustomerCard and ListCustomerCards', () => {
  const cards = fakeCards();
  let svc: RunningCustomers;
  const clientId = randomUUID();
  const otherClient = randomUUID();

  beforeAll(async () => {
    svc = await startCustomers({ cards: cards.directory });
  });
  afterAll(async () => {
    await svc.stop();
  });

  it("links the caller's card to the customer once, tells payments, and lists it", async () => {
    const customer = await svc.client.createCustomer(customerRequest(clientId));
    const first = cards.add(clientId, '1111');
    const second = cards.add(clientId, '4444');
    await svc.client.addCustomerCard({ clientId, customerId: customer.id, cardId: first });
    await svc.client.addCustomerCard({ clientId, customerId: customer.id, cardId: second });
    await svc.client.addCustomerCard({ clientId, customerId: customer.id, cardId: first });
    expect(cards.assigned.filter((a) => a.customerId === customer.id).map((a) => a.cardId)).toEqual([first, second, first]);

    const list = await svc.client.listCustomerCards({ clientId, customerId: customer.id, page: { page: 1, limit: 10, sort: '' } });
    expect(list.items.map((c) => c.last4digits)).toEqual(['4444', '1111']);
    expect(list.meta?.totalItems).toBe(2);
    const events = await svc.pool.query(`SELECT payload FROM outbox WHERE subject = 'customers.customer.card_added' AND payload->>'clientId' = $1`, [clientId]);
    expect(events.rows).toHaveLength(2);
    expect(JSON.stringify(events.rows)).not.toContain('411111');
  });

  it("answers not_found for another client's card or customer, and writes nothing", async () => {
    const customer = await svc.client.createCustomer(customerRequest(clientId));
    const foreignCard = cards.add(otherClient);
    await expect(svc.client.addCustomerCard({ clientId, customerId: customer.id, cardId: foreignCard })).rejects.toMatchObject({ kind: 'not_found' });
    const mine = cards.add(clientId);
    await expect(svc.client.addCustomerCard({ clientId: otherClient, customerId: customer.id, cardId: mine })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(svc.client.listCustomerCards({ clientId: otherClient, customerId: customer.id })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(svc.client.addCustomerCard({ clientId, customerId: customer.id, cardId: 'not-a-uuid' })).rejects.toMatchObject({ kind: 'not_found' });
    const links = await svc.pool.query('SELECT count(*)::int AS n FROM customer_cards WHERE customer_id = $1', [customer.id]);
    expect(links.rows[0].n).toBe(0);
  });

  it("refuses to link a card that is another customer's, and the card stays with its customer", async () => {
    const owner = await svc.client.createCustomer(customerRequest(clientId));
    const other = await svc.client.createCustomer(customerRequest(clientId));
    const card = cards.add(clientId, '7777');
    await svc.client.addCustomerCard({ clientId, customerId: owner.id, cardId: card });
    const refused = await failureOf(svc.client.addCustomerCard({ clientId, customerId: other.id, cardId: card }));
    expect(refused).toMatchObject({ kind: 'business_rule', businessCode: 'card_linked_to_another_customer' });
    expect(refused.message).not.toContain(owner.id);
    expect(cards.assigned.filter((a) => a.cardId === card).map((a) => a.customerId)).toEqual([owner.id]);
    expect((await svc.client.listCustomerCards({ clientId, customerId: other.id })).items).toEqual([]);
    expect((await svc.client.listCustomerCards({ clientId, customerId: owner.id })).items.map((c) => c.id)).toEqual([card]);
    // Linking it again to its own customer still changes nothing.
    await svc.client.addCustomerCard({ clientId, customerId: owner.id, cardId: card });
  });

  it('links a card to one customer only when two links of it race', async () => {
    const customers = await Promise.all(Array.from({ length: 4 }, () => svc.client.createCustomer(customerRequest(clientId))));
    const card = cards.add(clientId);
    const outcomes = await Promise.allSettled(customers.map((c) => svc.client.addCustomerCard({ clientId, customerId: c.id, cardId: card })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ kind: 'business_rule', businessCode: 'card_linked_to_another_customer' });
    }
    const links = await svc.pool.query('SELECT customer_id FROM customer_cards WHERE client_id = $1 AND card_id = $2', [clientId, card]);
    expect(links.rows).toHaveLength(1);
  });

  it('leaves no link when payments cannot record the owner', async () => {
    const customer = await svc.client.createCustomer(customerRequest(clientId));
    const card = cards.add(clientId);
    cards.failNextAssign(true);
    await expect(svc.client.addCustomerCard({ clientId, customerId: customer.id, cardId: card })).rejects.toMatchObject({ kind: 'unavailable' });
    cards.failNextAssign(false);
    const links = await svc.pool.query('SELECT count(*)::int AS n FROM customer_cards WHERE customer_id = $1', [customer.id]);
    expect(links.rows[0].n).toBe(0);
  });
});
