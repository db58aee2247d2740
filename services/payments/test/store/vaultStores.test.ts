import { randomUUID } from 'node:crypto';
import { toPage, withTransaction, type Pool } from '@platform/kit';
import type { SavedCard } from '../../src/modules/vault/domain/card';
import { createCardStore } from '../../src/modules/vault/store/cardStore';
import { createTokenStore, type StoredToken } from '../../src/modules/vault/store/tokenStore';
import { startStoreDatabase } from '../support/fixtures';

const tokens = createTokenStore();
const cards = createCardStore();
let pool: Pool;

beforeAll(async () => {
  pool = await startStoreDatabase('payments_vault_store');
});

afterAll(async () => {
  await pool.end();
});

const now = new Date('2025-06-15T12:00:00Z');

function newToken(clientId: string, overrides: Partial<StoredToken> = {}): StoredToken {
  return {
    id: randomUUID(),
    clientId,
    panSealed: Buffer.from('sealed-pan'),
    cvvSealed: Buffer.from('sealed-cvv'),
    holderName: 'Maria Souza',
    expirationMonth: 7,
    expirationYear: 2030,
    brand: 'visa',
    first6: '411111',
    last4: '1111',
    fingerprint: 'fp',
    expiresAt: new Date(now.getTime() + 900_000),
    usedAt: null,
    createdAt: now,
    sessionId: null,
    ...overrides,
  };
}

let second = 0;
function newCard(clientId: string, overrides: Partial<SavedCard> = {}): SavedCard {
  second += 1;
  const at = new Date(Date.UTC(2025, 0, 1, 0, 0, second));
  return {
    id: randomUUID(),
    clientId,
    customerId: null,
    merchantId: null,
    status: 'active',
    brand: 'visa',
    holderName: 'Maria Souza',
    first6: '411111',
    last4: '1111',
    expirationMonth: 7,
    expirationYear: 2030,
    fingerprint: 'fp',
    cvvChecked: false,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

async function tokenRow(id: string): Promise<{ used_at: Date | null; cvv_encrypted: Buffer | null }> {
  const { rows } = await pool.query('SELECT used_at, cvv_encrypted FROM card_tokens WHERE id = $1', [id]);
  return rows[0];
}

describe('token store', () => {
  it('consumes a token once, answering its sealed CVV and erasing it', async () => {
    const clientId = randomUUID();
    const token = newToken(clientId);
    await tokens.insert(pool, token);
    expect(await tokens.findUsable(pool, clientId, token.id, now)).toEqual(token);
    const used = await withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, now));
    expect(used).toMatchObject({ id: token.id, cvvSealed: token.cvvSealed, panSealed: token.panSealed });
    expect(await tokenRow(token.id)).toEqual({ used_at: now, cvv_encrypted: null });
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, now))).toBeNull();
    expect(await tokens.findUsable(pool, clientId, token.id, now)).toBeNull();
  });

  it('leaves a token unused when the consuming transaction rolls back', async () => {
    const clientId = randomUUID();
    const token = newToken(clientId);
    await tokens.insert(pool, token);
    await expect(
      withTransaction(pool, async (tx) => {
        await tokens.consume(tx, clientId, token.id, now);
        throw new Error('charge failed');
      }),
    ).rejects.toThrow('charge failed');
    expect(await tokenRow(token.id)).toEqual({ used_at: null, cvv_encrypted: token.cvvSealed });
  });

  it('gives a token to exactly one of 10 concurrent consumers', async () => {
    const clientId = randomUUID();
    const token = newToken(clientId);
    await tokens.insert(pool, token);
    const results = await Promise.all(Array.from({ length: 10 }, () => withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, now))));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('opens a token used by a charge again for that charge only, without its CVV, even once expired', async () => {
    const clientId = randomUUID();
    const chargeId = randomUUID();
    const token = newToken(clientId);
    await tokens.insert(pool, token);
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, now, chargeId))).toMatchObject({ cvvSealed: token.cvvSealed });
    const later = new Date(token.expiresAt.getTime() + 60_000);
    const again = await withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, later, chargeId));
    expect(again).toMatchObject({ id: token.id, cvvSealed: null, usedAt: now });
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, now, randomUUID()))).toBeNull();
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, now))).toBeNull();
  });

  it('uses a token made for a session for a charge of that session only, and a client-made one for no session', async () => {
    const clientId = randomUUID();
    const sessionA = randomUUID();
    const ofSession = newToken(clientId, { sessionId: sessionA });
    const ofClient = newToken(clientId);
    await tokens.insert(pool, ofSession);
    await tokens.insert(pool, ofClient);
    expect(await tokens.sessionOf(pool, clientId, ofSession.id)).toBe(sessionA);
    expect(await tokens.sessionOf(pool, clientId, ofClient.id)).toBeNull();
    expect(await tokens.sessionOf(pool, randomUUID(), ofSession.id)).toBeUndefined();
    expect(await tokens.sessionOf(pool, clientId, 'bad-id')).toBeUndefined();
    // Neither is used by a charge of another session, nor the session's by a charge of none.
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, ofSession.id, now, randomUUID()))).toBeNull();
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, ofSession.id, now, randomUUID(), randomUUID()))).toBeNull();
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, ofClient.id, now, randomUUID(), sessionA))).toBeNull();
    expect((await tokenRow(ofSession.id)).used_at).toBeNull();
    expect((await tokenRow(ofClient.id)).used_at).toBeNull();
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, ofSession.id, now, randomUUID(), sessionA))).toMatchObject({ id: ofSession.id, sessionId: sessionA });
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, ofClient.id, now, randomUUID(), null))).toMatchObject({ id: ofClient.id, sessionId: null });
  });

  it('does not consume an expired token', async () => {
    const clientId = randomUUID();
    const token = newToken(clientId, { expiresAt: now });
    await tokens.insert(pool, token);
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientId, token.id, now))).toBeNull();
    expect(await tokens.findUsable(pool, clientId, token.id, now)).toBeNull();
  });

  it('erases the CVVs of expired tokens only', async () => {
    const clientId = randomUUID();
    const expired = newToken(clientId, { expiresAt: new Date(now.getTime() - 1) });
    const live = newToken(clientId);
    await tokens.insert(pool, expired);
    await tokens.insert(pool, live);
    expect(await tokens.eraseExpiredCvvs(pool, now)).toBeGreaterThanOrEqual(1);
    expect((await tokenRow(expired.id)).cvv_encrypted).toBeNull();
    expect((await tokenRow(live.id)).cvv_encrypted).toEqual(live.cvvSealed);
    expect(await tokens.eraseExpiredCvvs(pool, now)).toBe(0);
  });

  it("never gives client A's token to client B, and takes malformed ids as unknown", async () => {
    const clientA = randomUUID();
    const token = newToken(clientA);
    await tokens.insert(pool, token);
    expect(await tokens.findUsable(pool, randomUUID(), token.id, now)).toBeNull();
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, randomUUID(), token.id, now))).toBeNull();
    expect(await withTransaction(pool, (tx) => tokens.consume(tx, clientA, 'bad-id', now))).toBeNull();
    expect((await tokenRow(token.id)).used_at).toBeNull();
  });
});

describe('card store', () => {
  it('stores a card and reads it back, the sealed number only when asked', async () => {
    const clientId = randomUUID();
    const card = newCard(clientId);
    expect(await cards.insert(pool, card, Buffer.from('sealed-pan'))).toEqual(card);
    expect(await cards.findById(pool, clientId, card.id)).toEqual(card);
    expect(await cards.findSealed(pool, clientId, card.id)).toEqual({ card, panSealed: Buffer.from('sealed-pan') });
  });

  it('lists newest first, filtered by customer and ids', async () => {
    const clientId = randomUUID();
    const customerId = randomUUID();
    const a = await cards.insert(pool, newCard(clientId, { customerId }), Buffer.from('x'));
    const b = await cards.insert(pool, newCard(clientId), Buffer.from('x'));
    const c = await cards.insert(pool, newCard(clientId, { customerId }), Buffer.from('x'));
    expect((await cards.list(pool, clientId, {}, toPage({}))).items.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(await cards.list(pool, clientId, { customerId }, toPage({}))).toEqual({ items: [c, a], totalItems: 2 });
    expect(await cards.list(pool, clientId, { ids: [a.id, b.id, 'bad'] }, toPage({ sort: 'ASC' }))).toEqual({ items: [a, b], totalItems: 2 });
    expect(await cards.list(pool, clientId, { ids: ['bad'] }, toPage({}))).toEqual({ items: [], totalItems: 0 });
    expect(await cards.list(pool, clientId, { customerId: 'bad' }, toPage({}))).toEqual({ items: [], totalItems: 0 });
  });

  it('assigns a card to a customer', async () => {
    const clientId = randomUUID();
    const card = await cards.insert(pool, newCard(clientId), Buffer.from('x'));
    const customerId = randomUUID();
    const at = new Date('2025-05-01T00:00:00Z');
    expect(await cards.assignCustomer(pool, clientId, card.id, customerId, at)).toEqual({ ...card, customerId, updatedAt: at });
  });

  it("never shows or assigns client A's card for client B", async () => {
    const clientA = randomUUID();
    const clientB = randomUUID();
    const card = await cards.insert(pool, newCard(clientA), Buffer.from('x'));
    expect(await cards.findById(pool, clientB, card.id)).toBeNull();
    expect(await cards.findSealed(pool, clientB, card.id)).toBeNull();
    expect(await cards.list(pool, clientB, {}, toPage({}))).toEqual({ items: [], totalItems: 0 });
    expect(await cards.list(pool, clientB, { ids: [card.id] }, toPage({}))).toEqual({ items: [], totalItems: 0 });
    expect(await cards.assignCustomer(pool, clientB, card.id, randomUUID(), new Date())).toBeNull();
    expect(await cards.findById(pool, clientA, card.id)).toEqual(card);
    expect(await cards.findById(pool, clientA, 'bad')).toBeNull();
  });
});
