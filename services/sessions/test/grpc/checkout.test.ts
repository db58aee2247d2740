import { randomUUID } from 'node:crypto';
import { createTestSession, failureOf, type RunningSessions, startSessions } from '../support';

let running: RunningSessions;

beforeAll(async () => {
  running = await startSessions();
});

afterAll(async () => {
  await running.stop();
});

const newSession = (clientId: string) => createTestSession(running, clientId);

describe('GetCheckoutSession (the payment link, for the hosted checkout page)', () => {
  it('finds a session by its id alone, with its client and the public key that pays it', async () => {
    const clientId = randomUUID();
    const created = await newSession(clientId);
    const found = await running.client.getCheckoutSession({ id: created.id });
    expect(found).toMatchObject({ id: created.id, clientId, merchantId: created.merchantId, publicKey: created.publicKey, amount: 5000, status: 'created' });
    expect(found.items).toEqual(created.items);
    // The key it hands out is the one the gateway accepts for that session.
    expect((await running.client.authenticateSessionKey({ clientId, sessionId: created.id, key: found.publicKey })).valid).toBe(true);
  });

  it('answers not_found for an unknown id and for anything that is not a session id', async () => {
    for (const id of [randomUUID(), 'not-a-session', '', "' OR 1=1 --"]) {
      expect(await failureOf(running.client.getCheckoutSession({ id }))).toMatchObject({ kind: 'not_found' });
    }
  });
});
