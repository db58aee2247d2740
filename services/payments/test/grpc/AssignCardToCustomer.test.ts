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
  it('links the card to the customer, and moves it on a second call', async () => {
    const clientId = randomUUID();
    const card = await savedCard(running, clientId);
    const customerId = randomUUID();
    const assigned = await running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId: customerId.toUpperCase() });
    expect(assigned).toEqual({ ...card, customerId, updatedAt: expect.any(Date) });
    expect(await running.client.getCard({ clientId, id: card.id })).toEqual(assigned);
    const other = randomUUID();
    expect((await running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId: other })).customerId).toBe(other);
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
