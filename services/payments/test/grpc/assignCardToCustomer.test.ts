import { randomUUID } from 'node:crypto';
import { failureOf, startPayments, type RunningPayments } from '../support/payments';
import { savedCard } from '../support/vault';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('AssignCardToCustomer', () => {
  it("links the card to the customer, again to the same one, and refuses another customer's link: the card stays", async () => {
    const clientId = randomUUID();
    const card = await savedCard(running, clientId);
    const customerId = randomUUID();
    const assigned = await running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId: customerId.toUpperCase() });
    expect(assigned).toEqual({ ...card, customerId, updatedAt: expect.any(Date) });
    expect(await running.client.getCard({ clientId, id: card.id })).toEqual(assigned);
    expect((await running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId })).customerId).toBe(customerId);
    const other = randomUUID();
    expect(await failureOf(running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId: other }))).toMatchObject({
      kind: 'business_rule',
      businessCode: 'card_linked_to_another_customer',
    });
    expect((await running.client.getCard({ clientId, id: card.id })).customerId).toBe(customerId);
  });

  it('gives a card to one customer only when links of it race', async () => {
    const clientId = randomUUID();
    const card = await savedCard(running, clientId);
    const customers = Array.from({ length: 4 }, () => randomUUID());
    const outcomes = await Promise.allSettled(customers.map((customerId) => running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId })));
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.customerId] : []));
    expect(won).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ businessCode: 'card_linked_to_another_customer' });
    }
    expect((await running.client.getCard({ clientId, id: card.id })).customerId).toBe(won[0]);
  });

  it('answers not_found for unknown, malformed and foreign cards and leaves a foreign card alone', async () => {
    const owner = randomUUID();
    const foreign = await savedCard(running, owner);
    for (const cardId of [randomUUID(), 'nope', foreign.id]) {
      expect((await failureOf(running.client.assignCardToCustomer({ clientId: randomUUID(), cardId, customerId: randomUUID() }))).kind).toBe('not_found');
    }
    expect((await running.client.getCard({ clientId: owner, id: foreign.id })).customerId).toBe('');
  });

  it('refuses a customer id that is not a UUID', async () => {
    const clientId = randomUUID();
    const card = await savedCard(running, clientId);
    const error = await failureOf(running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId: 'cus_1' }));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'customerId', message: 'must be a UUID' }]);
  });
});
