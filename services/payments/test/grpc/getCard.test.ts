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

describe('GetCard', () => {
  it('returns the card of the client', async () => {
    const clientId = randomUUID();
    const card = await savedCard(running, clientId);
    expect(await running.client.getCard({ clientId, id: card.id })).toEqual(card);
  });

  it.each(['nope', '', "' OR '1'='1"])('answers not_found for the malformed id %j', async (id) => {
    expect((await failureOf(running.client.getCard({ clientId: randomUUID(), id }))).kind).toBe('not_found');
  });

  it('answers not_found for an unknown id and a foreign card, and for a token id', async () => {
    const clientId = randomUUID();
    const foreign = await savedCard(running, randomUUID());
    const { tokenId } = await running.client.createToken({ clientId, card: { cardHolderName: 'Ana Lima', cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2040' } });
    for (const id of [randomUUID(), foreign.id, tokenId]) {
      expect((await failureOf(running.client.getCard({ clientId, id }))).kind).toBe('not_found');
    }
  });
});
