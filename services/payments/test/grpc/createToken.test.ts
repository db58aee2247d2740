import { randomUUID } from 'node:crypto';
import { cardInput, cardNumber, failureOf, futureExpiration, startPayments, type RunningPayments } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

interface TokenRow {
  client_id: string;
  pan_encrypted: Buffer;
  cvv_encrypted: Buffer | null;
  holder_name: string;
  exp_month: number;
  exp_year: number;
  brand: string;
  first6: string;
  last4: string;
  fingerprint: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

async function tokenRow(id: string): Promise<TokenRow | undefined> {
  return (await running.pool.query<TokenRow>('SELECT * FROM card_tokens WHERE id = $1', [id])).rows[0];
}

describe('CreateToken', () => {
  it('answers a token id that expires after CARD_TOKEN_TTL_SECONDS', async () => {
    const clientId = randomUUID();
    const before = running.clock.now().getTime();
    const token = await running.client.createToken({ clientId, card: cardInput() });
    const after = running.clock.now().getTime();
    expect(Object.keys(token).sort()).toEqual(['expiresAt', 'tokenId']);
    expect(token.tokenId).toMatch(/^[0-9a-f-]{36}$/);
    expect(token.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 900_000);
    expect(token.expiresAt!.getTime()).toBeLessThanOrEqual(after + 900_000);
  });

  it('stores the number and CVV sealed for their purposes, with brand, digits, expiry and fingerprint', async () => {
    const clientId = randomUUID();
    const number = cardNumber('506700');
    const token = await running.client.createToken({
      clientId,
      card: cardInput({ cardNumber: `${number.slice(0, 4)} ${number.slice(4, 8)}-${number.slice(8)}`, cardCvv: '321', cardHolderName: ' Ana  Lima ', cardExpirationDate: '03/2031' }),
    });
    const row = (await tokenRow(token.tokenId))!;
    expect(row).toMatchObject({
      client_id: clientId,
      holder_name: 'Ana Lima',
      exp_month: 3,
      exp_year: 2031,
      brand: 'elo',
      first6: number.slice(0, 6),
      last4: number.slice(-4),
      fingerprint: running.deps.vault.fingerprint(number),
      expires_at: token.expiresAt,
      used_at: null,
    });
    expect(await running.deps.vault.open('card-number', row.pan_encrypted)).toBe(number);
    expect(await running.deps.vault.open('card-cvv', row.cvv_encrypted!)).toBe('321');
    await expect(running.deps.vault.open('card-cvv', row.pan_encrypted)).rejects.toThrow();
  });

  it.each([
    ['visa', cardNumber('411111'), '123'],
    ['mastercard', cardNumber('222100'), '123'],
    ['amex', cardNumber('371111', 15), '1234'],
    ['hipercard', cardNumber('606282'), '123'],
    ['elo', cardNumber('451416'), '123'],
    ['diners', cardNumber('362272', 14), '123'],
  ])('tokenizes a %s card', async (brand, number, cvv) => {
    const token = await running.client.createToken({ clientId: randomUUID(), card: cardInput({ cardNumber: number, cardCvv: cvv }) });
    expect((await tokenRow(token.tokenId))!.brand).toBe(brand);
  });

  it('refuses an invalid card with a detail per field and never repeats the number or CVV', async () => {
    const clientId = randomUUID();
    const good = cardNumber();
    const badNumber = `${good.slice(0, 15)}${(Number(good.slice(-1)) + 1) % 10}`;
    const error = await failureOf(
      running.client.createToken({ clientId, card: { cardNumber: '4111111111111112', cardCvv: '98', cardExpirationDate: '01/2020', cardHolderName: 'X' } }),
    );
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field)).toEqual(['cardNumber', 'cardCvv', 'cardExpirationDate', 'cardHolderName']);
    const text = JSON.stringify({ message: error.message, details: error.details });
    expect(text).not.toContain('4111111111111112');
    expect(text).not.toMatch(/\b98\b/);
    expect((await failureOf(running.client.createToken({ clientId, card: cardInput({ cardNumber: badNumber }) }))).message).not.toContain(badNumber);
    expect((await running.pool.query('SELECT 1 FROM card_tokens WHERE client_id = $1', [clientId])).rows).toEqual([]);
  });

  it('refuses an amex CVV of 3 digits, a visa CVV of 4 and a past expiration', async () => {
    const amex = await failureOf(running.client.createToken({ clientId: randomUUID(), card: cardInput({ cardNumber: cardNumber('378282', 15), cardCvv: '123' }) }));
    expect(amex.details).toEqual([{ field: 'cardCvv', message: 'must be 4 digits' }]);
    const visa = await failureOf(running.client.createToken({ clientId: randomUUID(), card: cardInput({ cardCvv: '1234' }) }));
    expect(visa.details).toEqual([{ field: 'cardCvv', message: 'must be 3 digits' }]);
    const lastMonth = new Date(running.clock.now().getTime());
    lastMonth.setUTCDate(1);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    const past = `${String(lastMonth.getUTCMonth() + 1).padStart(2, '0')}/${lastMonth.getUTCFullYear()}`;
    const expired = await failureOf(running.client.createToken({ clientId: randomUUID(), card: cardInput({ cardExpirationDate: past }) }));
    expect(expired.details).toEqual([{ field: 'cardExpirationDate', message: 'is in the past' }]);
  });

  it('refuses a request without a card', async () => {
    const error = await failureOf(running.client.createToken({ clientId: randomUUID() }));
    expect(error.details?.map((d) => d.field)).toEqual(['cardNumber', 'cardCvv', 'cardExpirationDate', 'cardHolderName']);
  });

  it('refuses a client id that is not a UUID', async () => {
    expect((await failureOf(running.client.createToken({ clientId: 'nope', card: cardInput() }))).kind).toBe('validation');
  });

  it('replays the same token for the same idempotency key and card, and refuses another card', async () => {
    const clientId = randomUUID();
    const card = cardInput({ cardExpirationDate: futureExpiration(2) });
    const idempotencyKey = randomUUID();
    const first = await running.client.createToken({ clientId, card }, { idempotencyKey });
    expect(await running.client.createToken({ clientId, card }, { idempotencyKey })).toEqual(first);
    const error = await failureOf(running.client.createToken({ clientId, card: { ...card, cardCvv: card.cardCvv === '111' ? '222' : '111' } }, { idempotencyKey }));
    expect(error.businessCode).toBe('idempotency_key_reused');
    expect((await running.pool.query('SELECT 1 FROM card_tokens WHERE client_id = $1', [clientId])).rows).toHaveLength(1);
  });
});
