import { randomUUID } from 'node:crypto';
import { withTransaction } from '@platform/kit';
import type { CardSource } from '../../src/shared/ports';
import { createCardStore } from '../../src/modules/vault/store/cardStore';
import { cardInput, cardNumber, failureOf, startPayments, type RunningPayments, cardSourceOf } from '../support/payments';
import { savedCard } from '../support/vault';

let running: RunningPayments;
let source: CardSource;

beforeAll(async () => {
  running = await startPayments();
  source = cardSourceOf(running);
});

afterAll(async () => {
  await running.stop();
});

function resolve(clientId: string, paymentSource: Partial<Parameters<CardSource['resolve']>[2]>) {
  return withTransaction(running.pool, (tx) =>
    source.resolve(tx, clientId, { sourceType: 'card', cardId: '', cardCvv: '', tokenId: '', ...paymentSource }),
  );
}

async function rowCounts(): Promise<{ tokens: number; cards: number }> {
  const { rows } = await running.pool.query<{ tokens: number; cards: number }>(
    'SELECT (SELECT count(*)::int FROM card_tokens) AS tokens, (SELECT count(*)::int FROM cards) AS cards',
  );
  return rows[0]!;
}

describe('CardSource.resolve with a saved card', () => {
  it('opens the card and passes the CVV of this authorization through', async () => {
    const clientId = randomUUID();
    const input = cardInput({ cardNumber: cardNumber('222100'), cardHolderName: 'Ana Lima', cardExpirationDate: '02/2033' });
    const card = await savedCard(running, clientId, input);
    expect(await resolve(clientId, { cardId: card.id, cardCvv: '456' })).toEqual({
      cardId: card.id,
      number: input.cardNumber,
      cvv: '456',
      expirationMonth: 2,
      expirationYear: 2033,
      holderName: 'Ana Lima',
      brand: 'mastercard',
      first6: '222100',
      last4: input.cardNumber.slice(-4),
      fingerprint: card.fingerprint,
    });
    expect(await resolve(clientId, { cardId: card.id })).not.toHaveProperty('cvv');
  });

  it('refuses a CVV of the wrong length for the brand', async () => {
    const clientId = randomUUID();
    const card = await savedCard(running, clientId);
    const error = await failureOf(resolve(clientId, { cardId: card.id, cardCvv: '4567' }));
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field)).toEqual(['paymentSource.cardCvv']);
  });

  it('declines an expired saved card as expired_card', async () => {
    const clientId = randomUUID();
    const number = cardNumber();
    const at = new Date();
    const card = await createCardStore().insert(
      running.pool,
      {
        id: randomUUID(),
        clientId,
        customerId: null,
        merchantId: null,
        status: 'active',
        brand: 'visa',
        holderName: 'Ana Lima',
        first6: number.slice(0, 6),
        last4: number.slice(-4),
        expirationMonth: 1,
        expirationYear: 2020,
        fingerprint: running.deps.vault.fingerprint(number),
        cvvChecked: false,
        createdAt: at,
        updatedAt: at,
      },
      await running.deps.vault.seal('card-number', number),
    );
    const error = await failureOf(resolve(clientId, { cardId: card.id }));
    expect(error.kind).toBe('card_declined');
    expect(error.declinedCode).toBe('expired_card');
  });

  it('answers not_found for unknown, malformed and foreign cards', async () => {
    const foreign = await savedCard(running, randomUUID());
    for (const cardId of [randomUUID(), 'nope', foreign.id]) {
      expect((await failureOf(resolve(randomUUID(), { cardId }))).kind).toBe('not_found');
    }
  });
});

describe('CardSource.resolve with an inline card', () => {
  it('validates the card and stores nothing', async () => {
    const clientId = randomUUID();
    const input = cardInput({ cardNumber: cardNumber('378282', 15), cardCvv: '7531' });
    const before = await rowCounts();
    const card = await resolve(clientId, { card: input });
    expect(card).toEqual({
      number: input.cardNumber,
      cvv: '7531',
      expirationMonth: 7,
      expirationYear: expect.any(Number),
      holderName: 'Maria Souza',
      brand: 'amex',
      first6: input.cardNumber.slice(0, 6),
      last4: input.cardNumber.slice(-4),
      fingerprint: running.deps.vault.fingerprint(input.cardNumber),
    });
    expect(card).not.toHaveProperty('cardId');
    expect(await rowCounts()).toEqual(before);
  });

  it('declines an invalid number as invalid_number and a past expiration as expired_card', async () => {
    const invalid = await failureOf(resolve(randomUUID(), { card: cardInput({ cardNumber: '4111111111111112' }) }));
    expect(invalid).toMatchObject({ kind: 'card_declined', declinedCode: 'invalid_number' });
    expect(invalid.message).not.toContain('4111111111111112');
    const expired = await failureOf(resolve(randomUUID(), { card: cardInput({ cardExpirationDate: '01/2020' }) }));
    expect(expired).toMatchObject({ kind: 'card_declined', declinedCode: 'expired_card' });
  });

  it('answers a validation error for missing fields, and for a card source without card or id', async () => {
    const missing = await failureOf(resolve(randomUUID(), { card: cardInput({ cardCvv: '', cardHolderName: '' }) }));
    expect(missing.details?.map((d) => d.field)).toEqual(['paymentSource.card.cardCvv', 'paymentSource.card.cardHolderName']);
    const empty = await failureOf(resolve(randomUUID(), {}));
    expect(empty.details?.map((d) => d.field)).toEqual(['paymentSource.cardId']);
    const other = await failureOf(resolve(randomUUID(), { sourceType: 'wallet' }));
    expect(other.details?.map((d) => d.field)).toEqual(['paymentSource.sourceType']);
  });
});

describe('CardSource.resolve with a token', () => {
  it('uses the token up in the transaction and answers its number and CVV, erasing the CVV', async () => {
    const clientId = randomUUID();
    const input = cardInput();
    const { tokenId } = await running.client.createToken({ clientId, card: input });
    const card = await resolve(clientId, { sourceType: 'token', tokenId });
    expect(card).toMatchObject({ tokenId, number: input.cardNumber, cvv: input.cardCvv, brand: 'visa', last4: input.cardNumber.slice(-4) });
    const { rows } = await running.pool.query('SELECT used_at, cvv_encrypted FROM card_tokens WHERE id = $1', [tokenId]);
    expect(rows).toEqual([{ used_at: expect.any(Date), cvv_encrypted: null }]);
    expect((await failureOf(resolve(clientId, { sourceType: 'token', tokenId }))).kind).toBe('not_found');
  });

  it('leaves the token usable when the charge transaction rolls back', async () => {
    const clientId = randomUUID();
    const { tokenId } = await running.client.createToken({ clientId, card: cardInput() });
    await expect(
      withTransaction(running.pool, async (tx) => {
        await source.resolve(tx, clientId, { sourceType: 'token', tokenId, cardId: '', cardCvv: '' });
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
    expect((await resolve(clientId, { sourceType: 'token', tokenId })).cvv).toBeDefined();
  });

  it('answers not_found for unknown, malformed, foreign and expired tokens', async () => {
    const clientId = randomUUID();
    const foreign = (await running.client.createToken({ clientId: randomUUID(), card: cardInput() })).tokenId;
    for (const tokenId of [randomUUID(), 'nope', foreign]) {
      expect((await failureOf(resolve(clientId, { sourceType: 'token', tokenId }))).kind).toBe('not_found');
    }
    const { tokenId } = await running.client.createToken({ clientId, card: cardInput() });
    running.clock.advance(901_000);
    try {
      expect((await failureOf(resolve(clientId, { sourceType: 'token', tokenId }))).kind).toBe('not_found');
    } finally {
      running.clock.resume();
    }
    const missing = await failureOf(resolve(clientId, { sourceType: 'token' }));
    expect(missing.details?.map((d) => d.field)).toEqual(['paymentSource.tokenId']);
  });
});
