import { randomUUID } from 'node:crypto';
import { toCardJson } from '@platform/api-model';
import type { payments } from '@platform/contracts';
import { cardInput, cardNumber, failureOf, merchantRequest, outboxOf, startPayments, type RunningPayments } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

async function tokenFor(clientId: string, card: payments.CardInput = cardInput()): Promise<string> {
  return (await running.client.createToken({ clientId, card })).tokenId;
}

async function tokenState(id: string): Promise<{ used_at: Date | null; cvv_encrypted: Buffer | null; pan_encrypted: Buffer }> {
  return (await running.pool.query('SELECT used_at, cvv_encrypted, pan_encrypted FROM card_tokens WHERE id = $1', [id])).rows[0];
}

describe('CreateCard', () => {
  it('saves the card of a token, showing brand and digits only', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant(merchantRequest(clientId));
    const number = cardNumber('555555');
    const tokenId = await tokenFor(clientId, cardInput({ cardNumber: number, cardHolderName: 'Ana Lima', cardExpirationDate: '11/2032', cardCvv: '120' }));
    const card = await running.client.createCard({ clientId, tokenId, merchantId: merchant.id, cvvCheck: true });
    expect(card).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientId,
      customerId: '',
      merchantId: merchant.id,
      status: 'active',
      brand: 'mastercard',
      cardHolderName: 'Ana Lima',
      first6digits: '555555',
      last4digits: number.slice(-4),
      expirationMonth: 11,
      expirationYear: 2032,
      fingerprint: running.deps.vault.fingerprint(number),
      cvvChecked: true,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(JSON.stringify(card)).not.toContain(number);
    expect(await running.client.getCard({ clientId, id: card.id })).toEqual(card);
  });

  it('copies the sealed number, uses the token up and erases its CVV in the same change', async () => {
    const clientId = randomUUID();
    const number = cardNumber();
    const tokenId = await tokenFor(clientId, cardInput({ cardNumber: number }));
    expect((await tokenState(tokenId)).cvv_encrypted).not.toBeNull();
    const card = await running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false });
    const token = await tokenState(tokenId);
    expect(token.used_at).toBeInstanceOf(Date);
    expect(token.cvv_encrypted).toBeNull();
    const { rows } = await running.pool.query<{ pan_encrypted: Buffer }>('SELECT pan_encrypted FROM cards WHERE id = $1', [card.id]);
    expect(rows[0]!.pan_encrypted.equals(token.pan_encrypted)).toBe(true);
    expect(await running.deps.vault.open('card-number', rows[0]!.pan_encrypted)).toBe(number);
  });

  it('marks the CVV checked only when the check was asked and the sandbox validated it', async () => {
    const clientId = randomUUID();
    const checked = async (cvv: string, cvvCheck: boolean) =>
      (await running.client.createCard({ clientId, tokenId: await tokenFor(clientId, cardInput({ cardCvv: cvv })), merchantId: '', cvvCheck })).cvvChecked;
    expect(await checked('130', true)).toBe(true);
    expect(await checked('131', true)).toBe(false);
    expect(await checked('139', true)).toBe(false);
    expect(await checked('130', false)).toBe(false);
  });

  it('refuses a used token: single use', async () => {
    const clientId = randomUUID();
    const tokenId = await tokenFor(clientId);
    await running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false });
    const error = await failureOf(running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false }));
    expect(error.kind).toBe('not_found');
  });

  it('saves exactly one card when 10 calls use one token at once', async () => {
    const clientId = randomUUID();
    const tokenId = await tokenFor(clientId);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: true })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as { kind?: string }).kind)).toEqual(Array(9).fill('not_found'));
    expect((await running.pool.query('SELECT 1 FROM cards WHERE client_id = $1', [clientId])).rows).toHaveLength(1);
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.card.created']);
  });

  it('answers not_found for unknown, malformed and foreign tokens, and leaves a foreign token usable', async () => {
    const clientId = randomUUID();
    const owner = randomUUID();
    const foreign = await tokenFor(owner);
    for (const tokenId of [randomUUID(), 'nope', '', foreign]) {
      expect((await failureOf(running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false }))).kind).toBe('not_found');
    }
    expect((await tokenState(foreign)).used_at).toBeNull();
    expect((await running.client.createCard({ clientId: owner, tokenId: foreign, merchantId: '', cvvCheck: false })).clientId).toBe(owner);
  });

  it('answers not_found for a foreign or unknown merchant and keeps the token unused', async () => {
    const clientId = randomUUID();
    const foreign = await running.client.createMerchant(merchantRequest(randomUUID()));
    const tokenId = await tokenFor(clientId);
    for (const merchantId of [foreign.id, randomUUID(), 'bad']) {
      expect((await failureOf(running.client.createCard({ clientId, tokenId, merchantId, cvvCheck: true }))).kind).toBe('not_found');
    }
    expect(await tokenState(tokenId)).toMatchObject({ used_at: null, cvv_encrypted: expect.any(Buffer) });
  });

  it('gives the same card saved twice the same fingerprint', async () => {
    const clientId = randomUUID();
    const card = cardInput();
    const first = await running.client.createCard({ clientId, tokenId: await tokenFor(clientId, card), merchantId: '', cvvCheck: false });
    const second = await running.client.createCard({ clientId, tokenId: await tokenFor(clientId, { ...card, cardNumber: card.cardNumber.replace(/(\d{4})/g, '$1 ') }), merchantId: '', cvvCheck: false });
    expect(second.id).not.toBe(first.id);
    expect(second.fingerprint).toBe(first.fingerprint);
    const other = await running.client.createCard({ clientId, tokenId: await tokenFor(clientId), merchantId: '', cvvCheck: false });
    expect(other.fingerprint).not.toBe(first.fingerprint);
  });

  it('writes payments.card.created with the card as the API shows it', async () => {
    const clientId = randomUUID();
    const input = cardInput();
    const card = await running.client.createCard({ clientId, tokenId: await tokenFor(clientId, input), merchantId: '', cvvCheck: true });
    const events = await outboxOf(running.pool, clientId);
    expect(events.map((e) => e.subject)).toEqual(['payments.card.created']);
    expect(events[0]!.payload.data).toEqual(toCardJson(card));
    expect(events[0]!.payload.data).toMatchObject({ id: card.id, clientId, customerId: null, merchantId: null, status: 'active', cardHolderName: input.cardHolderName });
    expect(JSON.stringify(events)).not.toContain(input.cardNumber);
  });

  it('replays the same card for the same idempotency key', async () => {
    const clientId = randomUUID();
    const tokenId = await tokenFor(clientId);
    const idempotencyKey = randomUUID();
    const first = await running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false }, { idempotencyKey });
    expect(await running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false }, { idempotencyKey })).toEqual(first);
  });

  it('refuses an expired token', async () => {
    const clientId = randomUUID();
    const tokenId = await tokenFor(clientId);
    running.clock.advance(901_000);
    try {
      expect((await failureOf(running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false }))).kind).toBe('not_found');
    } finally {
      running.clock.resume();
    }
    expect((await tokenState(tokenId)).used_at).toBeNull();
  });
});
