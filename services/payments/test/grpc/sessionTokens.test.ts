import { randomUUID } from 'node:crypto';
import { cardCharge, cardNumberEnding, chargeCount, createMerchant, failureOf, inlineCard, paymentSource, startCharges, type RunningCharges } from '../support/charges';

/**
 * A token made with a session's public key (CreateToken with a session id) pays that session only, and a session is
 * paid only with a token made for it: a client-made token, or one of another session, is refused with
 * `token_not_for_session`, nothing stored and the token left usable where it belongs.
 */
let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

const byToken = (tokenId: string) => paymentSource({ sourceType: 'token', tokenId });

async function tokenUsed(tokenId: string): Promise<boolean> {
  const { rows } = await running.pool.query<{ used: boolean }>('SELECT used_at IS NOT NULL AS used FROM card_tokens WHERE id = $1', [tokenId]);
  return rows[0]!.used;
}

describe('tokens made for a session', () => {
  it('stores the session a token was made for, and answers it', async () => {
    const clientId = randomUUID();
    const sessionId = randomUUID();
    const ofSession = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')), sessionId });
    const ofClient = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')) });
    expect(await running.client.getTokenSession({ clientId, tokenId: ofSession.tokenId })).toEqual({ sessionId });
    expect(await running.client.getTokenSession({ clientId, tokenId: ofClient.tokenId })).toEqual({ sessionId: '' });
    expect((await failureOf(running.client.getTokenSession({ clientId: randomUUID(), tokenId: ofSession.tokenId }))).kind).toBe('not_found');
    expect((await failureOf(running.client.getTokenSession({ clientId, tokenId: 'nope' }))).kind).toBe('not_found');
    const bad = await failureOf(running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')), sessionId: 'not-a-uuid' }));
    expect(bad.details?.map((d) => d.field)).toEqual(['sessionId']);
  });

  it("pays a session with a token made for it, and refuses a client-made token or another session's", async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const sessionA = randomUUID();
    const sessionB = randomUUID();
    const ofClient = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')) });
    const ofA = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')), sessionId: sessionA });

    const clientMade = await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, '', { sessionId: sessionA, paymentSource: byToken(ofClient.tokenId) })));
    expect(clientMade).toMatchObject({ kind: 'business_rule', businessCode: 'token_not_for_session' });
    expect(clientMade.message).toMatch(/client key/);
    const otherSession = await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, '', { sessionId: sessionB, paymentSource: byToken(ofA.tokenId) })));
    expect(otherSession).toMatchObject({ kind: 'business_rule', businessCode: 'token_not_for_session' });
    expect(otherSession.message).toMatch(/another session/);
    expect(await chargeCount(running.pool, clientId)).toBe(0);
    expect(await tokenUsed(ofClient.tokenId)).toBe(false);
    expect(await tokenUsed(ofA.tokenId)).toBe(false);

    const paid = await running.client.createCharge(cardCharge(clientId, merchant.id, '', { sessionId: sessionA, paymentSource: byToken(ofA.tokenId) }));
    expect(paid).toMatchObject({ status: 'authorized', sessionId: sessionA, paymentSource: { sourceType: 'token' } });
    expect(await tokenUsed(ofA.tokenId)).toBe(true);
    // The client-made token still pays a charge of the client's own.
    expect((await running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: byToken(ofClient.tokenId) }))).status).toBe('authorized');
  });

  it("refuses a session's token for a charge of no session and for saving a card", async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const { tokenId } = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')), sessionId: randomUUID() });
    const charge = await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: byToken(tokenId) })));
    expect(charge).toMatchObject({ kind: 'business_rule', businessCode: 'token_not_for_session' });
    const card = await failureOf(running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false }));
    expect(card).toMatchObject({ kind: 'business_rule', businessCode: 'token_not_for_session' });
    expect(await chargeCount(running.pool, clientId)).toBe(0);
    const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cards WHERE client_id = $1', [clientId]);
    expect(rows[0]!.n).toBe(0);
    expect(await tokenUsed(tokenId)).toBe(false);
  });
});
