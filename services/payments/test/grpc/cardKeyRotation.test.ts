import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { baseServiceConfig, createLogger, createPool, loadConfig, type OutboxRelay, type Pool } from '@platform/kit';
import { eventually, ManualClock } from '@platform/testkit';
import { Client } from 'pg';
import { paymentsConfig } from '../../src/config';
import { definePaymentsService } from '../../src/service';
import { keyIdOf } from '../../src/modules/vault/crypto/crypto';
import { cardCharge, cardNumberEnding, createMerchant, inlineCard, paymentSource, startCharges, type RunningCharges } from '../support/charges';
import { FakeClientsPort } from '../support/clients';
import { FakeCustomers } from '../support/customers';
import { FakeSellers } from '../support/sellers';
import { FakeSubscriptionSettings } from '../support/subscriptionSettings';
import { sweep } from '../support/sweep';

/**
 * The rotation of the card vault's master key, end to end on the real service and database: cards sealed under
 * k1; k2 added as the sealing key while charges run; the re-wrap job moves every value; k1 removed; every card
 * still charges, and at no step is a card number or CVV readable in the database.
 */

const hex = () => randomBytes(32).toString('hex');
const k1 = `k1:${hex()}`;
const k2 = `k2:${hex()}`;
const fingerprintKey = hex();
const log = createLogger({ name: 'card-key-rotation-test', level: 'silent' });

/** The service's keys: only the ring given (the old single variable unset), the same fingerprint key throughout. */
const keys = (ring: string) => ({ CARD_ENCRYPTION_KEYS: ring, CARD_ENCRYPTION_KEY: '', CARD_FINGERPRINT_KEY: fingerprintKey });

/** Every card number and CVV that entered the service. */
const numbers: string[] = [];
const cvvs: string[] = [];

/** A card the sandbox authorizes; `verified`: a CVV ending 0, which the sandbox checks when the card is saved. */
function newCard(verified = false): payments.CardInput {
  const number = cardNumberEnding('1');
  const nextCvv = () => (verified ? `${30 + randomInt(70)}0` : String(300 + randomInt(700)));
  let cvv = nextCvv();
  while (cvvs.includes(cvv) || numbers.some((n) => n.endsWith(cvv))) cvv = nextCvv();
  numbers.push(number);
  cvvs.push(cvv);
  return inlineCard(number, cvv);
}

/** How many stored values each key id wraps, over every sealed column, as the database derives the ids. */
async function valuesByKey(pool: Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ key_id: string; n: number }>(
    `SELECT key_id, count(*)::int AS n FROM (
       SELECT pan_key_id AS key_id FROM cards
       UNION ALL SELECT pan_key_id FROM card_tokens
       UNION ALL SELECT cvv_key_id FROM card_tokens WHERE cvv_encrypted IS NOT NULL
       UNION ALL SELECT credentials_key_id FROM providers
     ) v GROUP BY key_id ORDER BY key_id`,
  );
  return Object.fromEntries(rows.map((r) => [r.key_id, r.n]));
}

/** The stored card numbers by card id. */
async function storedPans(pool: Pool): Promise<Map<string, Buffer>> {
  const { rows } = await pool.query<{ id: string; pan_encrypted: Buffer; pan_key_id: string }>('SELECT id, pan_encrypted, pan_key_id FROM cards');
  // The id the database derived is the one the value names.
  for (const row of rows) expect(row.pan_key_id).toBe(keyIdOf(row.pan_encrypted));
  return new Map(rows.map((r) => [r.id, r.pan_encrypted]));
}

async function expectNoCardDataIn(pool: Pool): Promise<void> {
  expect(numbers.length).toBeGreaterThan(20);
  expect(await sweep(pool, { numbers, cvvs })).toEqual([]);
}

/**
 * What starting the service on `databaseUrl` with these keys does before it serves: the real wiring, on a pool of
 * its own and no NATS (it refuses before it would need them). Answers the refusal's message.
 */
async function refusalOf(databaseUrl: string, env: Record<string, string>): Promise<string> {
  const definition = definePaymentsService({
    clock: new ManualClock(),
    customers: new FakeCustomers({ strict: false }),
    sellers: new FakeSellers(),
    subscriptionSettings: new FakeSubscriptionSettings(),
    clients: new FakeClientsPort(),
  });
  const config = loadConfig(baseServiceConfig.extend(paymentsConfig.shape), {
    DATABASE_URL: databaseUrl,
    NATS_URL: 'nats://127.0.0.1:1',
    CUSTOMERS_GRPC_URL: '127.0.0.1:1',
    SELLERS_AND_REVIEWS_GRPC_URL: '127.0.0.1:1',
    SETTINGS_GRPC_URL: '127.0.0.1:1',
    ...env,
  });
  const pool = createPool({ url: databaseUrl, log });
  try {
    const started = await definition.wire({ config, log, pool, nc: undefined as never, outbox: { kick: () => undefined } as unknown as OutboxRelay });
    await Promise.all((started.workers ?? []).map((w) => w.stop()));
    return '';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await pool.end();
  }
}

async function chargeCard(running: RunningCharges, clientId: string, merchantId: string, cardId: string): Promise<string> {
  const charge = await running.client.createCharge(cardCharge(clientId, merchantId, '', { paymentSource: paymentSource({ sourceType: 'card', cardId }) }));
  return charge.status;
}

describe('rotating the card vault key while charges run', () => {
  const clientId = randomUUID();
  let merchantId = '';
  const cardIds: string[] = [];
  /** Tokens left unused: their numbers and CVVs stay stored until they are used. */
  const unusedTokens: string[] = [];
  let databaseUrl = '';
  let before = new Map<string, Buffer>();
  let running: RunningCharges | undefined;

  afterAll(async () => {
    await running?.stop();
  });

  it('seals cards, CVVs of tokens and provider credentials under k1, and they charge', async () => {
    running = await startCharges(keys(k1));
    databaseUrl = running.databaseUrl;
    merchantId = (await createMerchant(running.client, clientId)).id;
    for (let i = 0; i < 24; i++) {
      const { tokenId } = await running.client.createToken({ clientId, card: newCard() });
      cardIds.push((await running.client.createCard({ clientId, tokenId, merchantId, cvvCheck: true })).id);
    }
    for (let i = 0; i < 6; i++) unusedTokens.push((await running.client.createToken({ clientId, card: newCard(true) })).tokenId);
    for (const cardId of cardIds) expect(await chargeCard(running, clientId, merchantId, cardId)).toBe('authorized');
    // 24 cards, 30 token numbers, the 6 CVVs of unused tokens, one provider's credentials.
    expect(await valuesByKey(running.pool)).toEqual({ k1: 61 });
    before = await storedPans(running.pool);
    await expectNoCardDataIn(running.pool);
    await running.stop();
    running = undefined;
  });

  it('refuses to start without k1 while values need it, naming the key and the count', async () => {
    const message = await refusalOf(databaseUrl, keys(k2));
    expect(message).toContain('key k1 seals 61 stored values');
    expect(message).toContain('CARD_ENCRYPTION_KEYS');
    expect(message).not.toContain(k1.slice(3, 20));
  });

  it('adds k2 as the sealing key: charges go on while the re-wrap job moves every value to k2', async () => {
    // A session holding four cards' rows, as a long transaction would: the job must go around them, not wait.
    const holder = new Client({ connectionString: databaseUrl });
    await holder.connect();
    const held = cardIds.slice(0, 4);
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM cards WHERE id = ANY($1::uuid[]) FOR UPDATE', [held]);
    try {
      running = await startCharges(keys(`${k2},${k1}`), { databaseUrl, rewrapBatch: 5 });
      const service = running;
      // Charges from the moment the service serves until the rotation is over, one card after the other.
      let rotating = true;
      const statuses: string[] = [];
      const background = (async () => {
        for (let i = 0; rotating; i++) statuses.push(await chargeCard(service, clientId, merchantId, cardIds[i % cardIds.length]!));
      })();

      // The job moves everything but the held rows, and comes back for them.
      await eventually(async () => ((await valuesByKey(service.pool)).k1 === held.length ? true : undefined), 'every value but the held cards on k2');
      expect(await refusalOf(databaseUrl, keys(k2))).toContain(`key k1 seals ${held.length} stored values`);
      // Midway, every card charges, whichever key wraps it now, and a card saved now is sealed with k2.
      const { tokenId } = await service.client.createToken({ clientId, card: newCard() });
      const fresh = await service.client.createCard({ clientId, tokenId, merchantId, cvvCheck: true });
      cardIds.push(fresh.id);
      const midway = await Promise.all(cardIds.map((cardId) => chargeCard(service, clientId, merchantId, cardId)));
      expect(midway).toEqual(cardIds.map(() => 'authorized'));
      expect(keyIdOf((await storedPans(service.pool)).get(fresh.id)!)).toBe('k2');
      await expectNoCardDataIn(service.pool);

      await holder.query('COMMIT');
      await eventually(async () => ((await valuesByKey(service.pool)).k1 === undefined ? true : undefined), 'no value left on k1');
      rotating = false;
      await background;
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 'authorized')).toEqual([]);
    } finally {
      await holder.end();
    }
    expect(await valuesByKey(running.pool)).toEqual({ k2: 63 });
    // Envelope encryption: only the data keys were re-wrapped; nonce, tag and ciphertext of each number stayed.
    const after = await storedPans(running.pool);
    for (const [id, old] of before) {
      const now = after.get(id)!;
      expect(keyIdOf(now)).toBe('k2');
      expect(now.subarray(66).equals(old.subarray(66))).toBe(true);
      expect(now.equals(old)).toBe(false);
    }
    await expectNoCardDataIn(running.pool);
    await running.stop();
    running = undefined;
  });

  it('removes k1: the service starts on k2 alone and every card still charges', async () => {
    running = await startCharges(keys(k2), { databaseUrl });
    for (const cardId of cardIds) expect(await chargeCard(running, clientId, merchantId, cardId)).toBe('authorized');
    // The CVVs of the unused tokens open under k2 too (the sandbox verifies each), and their cards charge.
    for (const tokenId of unusedTokens) {
      const card = await running.client.createCard({ clientId, tokenId, merchantId, cvvCheck: true });
      expect(card.cvvChecked).toBe(true);
      expect(await chargeCard(running, clientId, merchantId, card.id)).toBe('authorized');
    }
    // A token charged directly opens under k2.
    const { tokenId } = await running.client.createToken({ clientId, card: newCard() });
    expect((await running.client.createCharge(cardCharge(clientId, merchantId, '', { paymentSource: paymentSource({ sourceType: 'token', tokenId }) }))).status).toBe('authorized');
    expect(Object.keys(await valuesByKey(running.pool))).toEqual(['k2']);
    await expectNoCardDataIn(running.pool);
  });
});
