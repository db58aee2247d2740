import { randomUUID } from 'node:crypto';
import { scheduleJob, type Pool } from '@platform/kit';
import { eventually } from '@platform/testkit';
import { RESUME_ABANDONED_OPERATIONS } from '../../src/modules/charges/app/chargeJobs';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import {
  cardCharge,
  cardNumberEnding,
  chargeCount,
  createMerchant,
  failureOf,
  inlineCard,
  paymentSource,
  startCharges,
  type RunningCharges,
} from '../support/charges';

afterEach(() => {
  jest.restoreAllMocks();
});

/** A promise the test settles by hand, to hold a provider where it is. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * From now on every query and every connection of the pool fails, as when the process loses its database (or
 * dies) right after a provider answered: nothing after that point is stored, the idempotency record included.
 */
function loseDatabase(pool: Pool): () => void {
  const lost = () => Promise.reject(new Error('Connection terminated unexpectedly'));
  const spies = [jest.spyOn(pool, 'connect').mockImplementation(lost as never), jest.spyOn(pool, 'query').mockImplementation(lost as never)];
  return () => spies.forEach((spy) => spy.mockRestore());
}

async function idempotencyState(pool: Pool, clientId: string): Promise<string[]> {
  const { rows } = await pool.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE client_id = $1', [clientId]);
  return rows.map((r) => r.state);
}

/** What the kit's takeover sees once the in-flight timeout has passed. */
async function makeInFlightStale(pool: Pool, clientId: string): Promise<void> {
  await pool.query(`UPDATE idempotency_keys SET updated_at = now() - interval '2 minutes' WHERE client_id = $1 AND state = 'in_flight'`, [clientId]);
}

describe('no database connection is held while a provider is asked', () => {
  let running: RunningCharges;

  beforeAll(async () => {
    running = await startCharges({ DATABASE_POOL_SIZE: '2', PROVIDER_TIMEOUT_MS: '500' });
  });

  afterAll(async () => {
    await running.stop();
  });

  it('answers reads while six charges wait on two slow providers with a pool of two connections', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const known = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    const authorize = jest.spyOn(SandboxProvider.prototype, 'authorize');

    // A card ending 6 never answers: each charge spends two timeouts (about a second) in its providers.
    let settled = 0;
    const slow = Array.from({ length: 6 }, () =>
      running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('6'))).finally(() => settled++),
    );
    await eventually(() => (authorize.mock.calls.length >= 6 ? true : undefined), 'six authorizations', { timeoutMs: 400, intervalMs: 20 });

    const [got, listed] = await Promise.all([
      running.client.getCharge({ clientId, id: known.id }),
      running.client.listCharges({ clientId, status: [], paymentType: [], providerType: [] }),
    ]);
    expect(settled).toBe(0);
    expect(got.id).toBe(known.id);
    expect(listed.items.map((c) => c.id)).toEqual([known.id]);

    const charges = await Promise.all(slow);
    for (const charge of charges) expect(charge).toMatchObject({ status: 'failed', declinedCode: 'try_again' });
    expect(await chargeCount(running.pool, clientId)).toBe(7);
  });

  it('refuses another capture or a void while a capture is with the provider, without showing the pending one', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const held = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { capture: false }));
    const asked = gate();
    const release = gate();
    const original = SandboxProvider.prototype.capture;
    jest.spyOn(SandboxProvider.prototype, 'capture').mockImplementation(async function (this: SandboxProvider, request, call) {
      asked.open();
      await release.opened;
      return original.call(this, request, call);
    });

    const capturing = running.client.captureCharge({ clientId, id: held.id });
    await asked.opened;
    const again = await failureOf(running.client.captureCharge({ clientId, id: held.id }));
    const voiding = await failureOf(running.client.voidCharge({ clientId, id: held.id, splitRules: [] }));
    const meanwhile = await running.client.getCharge({ clientId, id: held.id });
    release.open();

    expect(again).toMatchObject({ kind: 'conflict', key: 'charge_operation_in_progress' });
    expect(voiding).toMatchObject({ kind: 'conflict', key: 'charge_operation_in_progress' });
    expect(meanwhile).toMatchObject({ status: 'pre_authorized', capturedAmount: 0 });
    expect(meanwhile.transactionRequests.map((r) => r.requestType)).toEqual(['authorization']);
    expect(await capturing).toMatchObject({ status: 'authorized', capturedAmount: 1000 });
  });
});

describe('a crash between the provider call and the commit', () => {
  let running: RunningCharges;

  beforeAll(async () => {
    running = await startCharges();
  });

  afterAll(async () => {
    await running.stop();
  });

  it('retries a charge with the same id and provider key, so the provider answers its first authorization', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const token = await running.client.createToken({ clientId, card: inlineCard(cardNumberEnding('1')) });
    const request = cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ sourceType: 'token', tokenId: token.tokenId }) });
    const idempotencyKey = randomUUID();

    let restore = () => undefined as void;
    const answers: { key: string; transactionId: string | undefined }[] = [];
    const original = SandboxProvider.prototype.authorize;
    jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation(async function (this: SandboxProvider, req, call) {
      const answer = await original.call(this, req, call);
      answers.push({ key: call.idempotencyKey, transactionId: answer.transactionId });
      if (answers.length === 1) restore = loseDatabase(running.pool);
      return answer;
    });

    const crashed = await failureOf(running.client.createCharge(request, { idempotencyKey }));
    restore();
    expect(crashed.kind).toBe('internal');
    expect(await chargeCount(running.pool, clientId)).toBe(0);
    expect(await idempotencyState(running.pool, clientId)).toEqual(['in_flight']);

    // Before the in-flight timeout a retry is told to wait; after it, the retry takes the attempt over.
    expect(await failureOf(running.client.createCharge(request, { idempotencyKey }))).toMatchObject({ kind: 'conflict' });
    await makeInFlightStale(running.pool, clientId);
    const charge = await running.client.createCharge(request, { idempotencyKey });

    expect(charge.status).toBe('authorized');
    expect(answers).toHaveLength(2);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]!.key).toBe(`${charge.id}:authorization:1`);
    expect(charge.transactionRequests.map((r) => [r.idempotencyKey, r.transactionId])).toEqual([[answers[0]!.key, answers[0]!.transactionId]]);
    expect(await chargeCount(running.pool, clientId)).toBe(1);
    expect(await running.client.createCharge(request, { idempotencyKey })).toEqual(charge);
    // The token was used by the first attempt; no other charge may use it.
    const other = cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ sourceType: 'token', tokenId: token.tokenId }) });
    expect((await failureOf(running.client.createCharge(other))).kind).toBe('not_found');
  });

  it('keeps a refund reserved, and its retry settles it with the same provider key', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 1000 }));
    const idempotencyKey = randomUUID();
    const refund = { clientId, id: charge.id, amount: 300, splitRules: [] };

    let restore = () => undefined as void;
    const keys: string[] = [];
    const original = SandboxProvider.prototype.refund;
    jest.spyOn(SandboxProvider.prototype, 'refund').mockImplementation(async function (this: SandboxProvider, req, call) {
      const answer = await original.call(this, req, call);
      keys.push(call.idempotencyKey);
      if (keys.length === 1) restore = loseDatabase(running.pool);
      return answer;
    });

    expect((await failureOf(running.client.voidCharge(refund, { idempotencyKey }))).kind).toBe('internal');
    restore();
    const meanwhile = await running.client.getCharge({ clientId, id: charge.id });
    expect(meanwhile).toMatchObject({ status: 'authorized', refundedAmount: 0 });
    expect(meanwhile.transactionRequests.map((r) => r.requestType)).toEqual(['authorization']);
    // The 300 stay reserved: only 700 may still be refunded.
    const tooMuch = await failureOf(running.client.voidCharge({ clientId, id: charge.id, amount: 800, splitRules: [] }));
    expect(tooMuch).toMatchObject({ businessCode: 'refund_exceeds_captured_amount' });

    await makeInFlightStale(running.pool, clientId);
    const refunded = await running.client.voidCharge(refund, { idempotencyKey });
    expect(refunded).toMatchObject({ status: 'authorized', refundedAmount: 300 });
    expect(keys).toEqual([`${charge.id}:refund:1`, `${charge.id}:refund:1`]);
    expect(refunded.transactionRequests.map((r) => [r.requestType, r.requestStatus, r.idempotencyKey])).toEqual([
      ['authorization', 'success', `${charge.id}:authorization:1`],
      ['refund', 'success', `${charge.id}:refund:1`],
    ]);
    expect(await running.client.voidCharge(refund, { idempotencyKey })).toEqual(refunded);
  });

  it('has the maintenance job settle a refund nobody retries, asking again with its key', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 1000 }));

    let restore = () => undefined as void;
    const keys: string[] = [];
    const original = SandboxProvider.prototype.refund;
    jest.spyOn(SandboxProvider.prototype, 'refund').mockImplementation(async function (this: SandboxProvider, req, call) {
      const answer = await original.call(this, req, call);
      keys.push(call.idempotencyKey);
      if (keys.length === 1) restore = loseDatabase(running.pool);
      return answer;
    });
    await failureOf(running.client.voidCharge({ clientId, id: charge.id, splitRules: [] }));
    restore();
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', refundedAmount: 0 });

    await running.pool.query(
      `UPDATE transaction_requests SET created_at = created_at - interval '10 minutes' WHERE charge_id = $1 AND request_status = 'pending'`,
      [charge.id],
    );
    // The minute's maintenance run, now rather than at the next minute mark.
    await scheduleJob(running.pool, { kind: RESUME_ABANDONED_OPERATIONS, runAt: new Date(), maxAttempts: 1 });
    await eventually(async () => ((await running.client.getCharge({ clientId, id: charge.id })).status === 'voided' ? true : undefined), 'the charge voided');

    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ refundedAmount: 1000 });
    expect(after.transactionRequests.filter((r) => r.requestType === 'refund').map((r) => [r.requestStatus, r.amount, r.idempotencyKey])).toEqual([
      ['success', 1000, `${charge.id}:refund:1`],
    ]);
    expect(keys).toEqual([`${charge.id}:refund:1`, `${charge.id}:refund:1`]);
  });
});
