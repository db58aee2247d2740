import { randomUUID } from 'node:crypto';
import { cardNumberEnding, failureOf, inlineCard, PUBLIC_URL, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

describe('SetupThreeDS', () => {
  it('opens a 3DS2 setup for a saved card and for a token, without using the token', async () => {
    const clientId = randomUUID();
    const token = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')) });
    const byToken = await running.client.setupThreeDs({ clientId, sourceType: 'token', cardId: '', tokenId: token.tokenId });
    expect(byToken).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      token: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      collectUrl: `${PUBLIC_URL}/v1/sandbox/3ds/${byToken.id}/collect`,
      providerType: 'SANDBOX',
    });
    const card = await running.client.createCard({ clientId, tokenId: token.tokenId, merchantId: '', cvvCheck: false });
    const byCard = await running.client.setupThreeDs({ clientId, sourceType: 'card', cardId: card.id, tokenId: '' });
    expect(byCard.providerType).toBe('SANDBOX');

    const { rows } = await running.pool.query('SELECT id, card_id, token_id, provider_type FROM three_ds_setups WHERE client_id = $1 ORDER BY created_at', [clientId]);
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: byToken.id, card_id: null, token_id: token.tokenId, provider_type: 'SANDBOX' },
        { id: byCard.id, card_id: card.id, token_id: null, provider_type: 'SANDBOX' },
      ]),
    );
  });

  it('answers not_found for a card or token of another client', async () => {
    const owner = randomUUID();
    const token = await running.client.createToken({ clientId: owner, card: inlineCard(cardNumberEnding('1')) });
    expect((await failureOf(running.client.setupThreeDs({ clientId: randomUUID(), sourceType: 'token', cardId: '', tokenId: token.tokenId }))).kind).toBe('not_found');
    expect((await failureOf(running.client.setupThreeDs({ clientId: owner, sourceType: 'card', cardId: randomUUID(), tokenId: '' }))).kind).toBe('not_found');
  });

  it('refuses a malformed request', async () => {
    const clientId = randomUUID();
    expect((await failureOf(running.client.setupThreeDs({ clientId, sourceType: 'card', cardId: 'x', tokenId: '' }))).details).toEqual([
      { field: 'cardId', message: 'must be a UUID' },
    ]);
    expect((await failureOf(running.client.setupThreeDs({ clientId, sourceType: 'wallet', cardId: '', tokenId: '' }))).details).toEqual([
      { field: 'sourceType', message: 'must be card or token' },
    ]);
  });
});

describe('SetupThreeDS idempotency', () => {
  it('answers a retry with the same key with the first setup', async () => {
    const clientId = randomUUID();
    const token = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')) });
    const request = { clientId, sourceType: 'token', cardId: '', tokenId: token.tokenId };
    const idempotencyKey = randomUUID();
    const first = await running.client.setupThreeDs(request, { idempotencyKey });
    expect(await running.client.setupThreeDs(request, { idempotencyKey })).toEqual(first);
    const { rows } = await running.pool.query('SELECT id FROM three_ds_setups WHERE client_id = $1', [clientId]);
    expect(rows).toEqual([{ id: first.id }]);
  });
});
