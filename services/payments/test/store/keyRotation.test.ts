import { randomBytes, randomUUID } from 'node:crypto';
import { cancelJobs, createLogger, listJobs, migrateJobs, type Pool } from '@platform/kit';
import { ManualClock } from '@platform/testkit';
import { checkVaultKeys, REWRAP_SEALED_VALUES, rewrapSealedValues, type KeyRotationDeps } from '../../src/modules/vault/app/keyRotation';
import { createCardStore } from '../../src/modules/vault/store/cardStore';
import { createTokenStore } from '../../src/modules/vault/store/tokenStore';
import { createVaultKeyStore, SEALED_COLUMNS } from '../../src/modules/vault/store/vaultKeyStore';
import type { Vault } from '../../src/modules/vault/crypto/crypto';
import { keyIdOf } from '../../src/modules/vault/crypto/crypto';
import { vaultFromConfig } from '../../src/modules/vault/crypto/keyRing';
import type { RingKey } from '../../src/modules/vault/crypto/keyService';
import { startStoreDatabase } from '../support/fixtures';
import { sealFormat1 } from '../support/format1';

let pool: Pool;
const log = createLogger({ name: 'key-rotation-test', level: 'silent' });
const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
const keyStore = createVaultKeyStore();
const fingerprintKey = randomBytes(32);
const k0: RingKey = { id: 'k0', key: randomBytes(32) };
const k1: RingKey = { id: 'k1', key: randomBytes(32) };
const k2: RingKey = { id: 'k2', key: randomBytes(32) };

const vaultOf = (...ring: RingKey[]): Vault => vaultFromConfig({ CARD_ENCRYPTION_KEYS: ring, CARD_FINGERPRINT_KEY: fingerprintKey });
const depsOf = (vault: Vault): KeyRotationDeps => ({ pool, log, clock, vault, keyStore });

beforeAll(async () => {
  pool = await startStoreDatabase('payments_key_rotation');
  await migrateJobs(pool, log);
});

afterAll(async () => {
  await pool.end();
});

beforeEach(async () => {
  await pool.query('TRUNCATE cards, card_tokens');
  for (const dedupeKey of ['k0', 'k1', 'k2']) await cancelJobs(pool, { kind: REWRAP_SEALED_VALUES, dedupeKey });
});

async function insertCard(panSealed: Buffer): Promise<string> {
  const now = clock.now();
  const card = await createCardStore().insert(
    pool,
    {
      id: randomUUID(),
      clientId: randomUUID(),
      customerId: null,
      merchantId: null,
      status: 'active',
      brand: 'visa',
      holderName: 'Ana Lima',
      first6: '411111',
      last4: '1111',
      expirationMonth: 1,
      expirationYear: 2040,
      fingerprint: 'fp',
      cvvChecked: false,
      createdAt: now,
      updatedAt: now,
    },
    panSealed,
  );
  return card.id;
}

async function insertToken(panSealed: Buffer, cvvSealed: Buffer | null): Promise<string> {
  const id = randomUUID();
  const now = clock.now();
  await createTokenStore().insert(pool, {
    id,
    clientId: randomUUID(),
    panSealed,
    cvvSealed,
    holderName: 'Ana Lima',
    expirationMonth: 1,
    expirationYear: 2040,
    brand: 'visa',
    first6: '411111',
    last4: '1111',
    fingerprint: 'fp',
    expiresAt: new Date(now.getTime() + 900_000),
    usedAt: null,
    createdAt: now,
  });
  return id;
}

/** Three cards and two tokens (number and CVV), all sealed by `vault`: seven values. */
async function seed(vault: Vault): Promise<void> {
  for (let i = 0; i < 3; i++) await insertCard(await vault.seal('card-number', `411111111111111${i}`));
  for (let i = 0; i < 2; i++) await insertToken(await vault.seal('card-number', `555555555555444${i}`), await vault.seal('card-cvv', `12${i}`));
}

async function keyIdsOf(): Promise<string[]> {
  const ids = new Set<string>();
  for (const column of SEALED_COLUMNS) for (const id of await keyStore.keyIdsInUse(pool, column)) ids.add(id);
  return [...ids].sort();
}

describe('the key ids of stored values', () => {
  it('are derived by the database from each value, the way the vault reads them', async () => {
    await seed(vaultOf(k1));
    await insertCard(sealFormat1(k0.key, 'card-number', '4111111111111111'));
    await insertToken(randomBytes(40), null);
    const { rows } = await pool.query<{ pan_encrypted: Buffer; pan_key_id: string | null }>('SELECT pan_encrypted, pan_key_id FROM cards');
    expect(rows.map((r) => r.pan_key_id).sort()).toEqual(['k0', 'k1', 'k1', 'k1']);
    for (const row of rows) expect(row.pan_key_id).toBe(keyIdOf(row.pan_encrypted));
    expect(await keyIdsOf()).toEqual(['k0', 'k1']);
    expect(Object.fromEntries(await keyStore.countByKey(pool, ['k0', 'k1', 'k2']))).toEqual({ k0: 1, k1: 7, k2: 0 });
    expect(await keyStore.countToMove(pool, ['k1'])).toBe(8);
  });
});

describe('checkVaultKeys (at start)', () => {
  it('does nothing when every value is on the sealing key', async () => {
    await seed(vaultOf(k1));
    await checkVaultKeys(depsOf(vaultOf(k1, k0)));
    expect(await listJobs(pool, REWRAP_SEALED_VALUES)).toEqual([]);
  });

  it('adds one re-wrap job to the sealing key, however many processes start', async () => {
    await seed(vaultOf(k1));
    await Promise.all([checkVaultKeys(depsOf(vaultOf(k2, k1))), checkVaultKeys(depsOf(vaultOf(k2, k1)))]);
    const jobs = await listJobs(pool, REWRAP_SEALED_VALUES);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ payload: { to: 'k2' }, dedupeKey: 'k2' });
  });

  it('adds the job for values in format 1 even when k0 still seals', async () => {
    await insertCard(sealFormat1(k0.key, 'card-number', '4111111111111111'));
    await checkVaultKeys(depsOf(vaultOf(k0)));
    expect((await listJobs(pool, REWRAP_SEALED_VALUES)).map((j) => j.payload)).toEqual([{ to: 'k0' }]);
  });

  it('refuses a ring without a key values are sealed with, naming each key and its count', async () => {
    await seed(vaultOf(k1));
    await insertCard(sealFormat1(k0.key, 'card-number', '4111111111111111'));
    await expect(checkVaultKeys(depsOf(vaultOf(k2)))).rejects.toThrow('key k0 seals 1 stored values; key k1 seals 7 stored values');
    await expect(checkVaultKeys(depsOf(vaultOf(k2, k1)))).rejects.toThrow(/lacks keys stored values are sealed with: key k0 seals 1 stored values\./);
  });

  it('refuses a wrong key under the id of the values', async () => {
    await seed(vaultOf(k1));
    await expect(checkVaultKeys(depsOf(vaultOf({ id: 'k1', key: randomBytes(32) })))).rejects.toThrow(/card vault key k1 opens none of the values sealed under that id \(cards.pan_encrypted\)/);
  });
});

describe('rewrapSealedValues (the job)', () => {
  it('moves every value to the sealing key in batches, and they open without the old key', async () => {
    await seed(vaultOf(k1));
    const outcome = await rewrapSealedValues(depsOf(vaultOf(k2, k1)), { to: 'k2' }, 2);
    expect(outcome).toBeUndefined();
    expect(await keyIdsOf()).toEqual(['k2']);
    const alone = vaultOf(k2);
    const { rows } = await pool.query<{ pan_encrypted: Buffer; cvv_encrypted: Buffer }>('SELECT pan_encrypted, cvv_encrypted FROM card_tokens');
    expect((await Promise.all(rows.map((r) => alone.open('card-cvv', r.cvv_encrypted)))).sort()).toEqual(['120', '121']);
    await checkVaultKeys(depsOf(alone));
  });

  it('seals values of format 1 again in format 2', async () => {
    const id = await insertCard(sealFormat1(k0.key, 'card-number', '4111111111111111'));
    await insertToken(sealFormat1(k0.key, 'card-number', '5555555555554444'), sealFormat1(k0.key, 'card-cvv', '321'));
    const vault = vaultOf(k0);
    expect(await rewrapSealedValues(depsOf(vault), { to: 'k0' })).toBeUndefined();
    expect(await keyStore.countToMove(pool, [])).toBe(0);
    const { rows } = await pool.query<{ pan_encrypted: Buffer }>('SELECT pan_encrypted FROM cards WHERE id = $1', [id]);
    expect(rows[0]!.pan_encrypted[0]).toBe(2);
    expect(await vault.open('card-number', rows[0]!.pan_encrypted)).toBe('4111111111111111');
  });

  it('goes around rows another transaction holds and comes back for them', async () => {
    await seed(vaultOf(k1));
    const held = await insertCard(await vaultOf(k1).seal('card-number', '4000000000000010'));
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM cards WHERE id = $1 FOR UPDATE', [held]);
      const deps = depsOf(vaultOf(k2, k1));
      expect(await rewrapSealedValues(deps, { to: 'k2' }, 2)).toEqual({ rescheduleAt: new Date(clock.now().getTime() + 2000) });
      expect(Object.fromEntries(await keyStore.countByKey(pool, ['k1', 'k2']))).toEqual({ k1: 1, k2: 7 });
      await holder.query('COMMIT');
      expect(await rewrapSealedValues(deps, { to: 'k2' }, 2)).toBeUndefined();
      expect(await keyIdsOf()).toEqual(['k2']);
    } finally {
      holder.release();
    }
  });

  it('leaves a value it cannot open on its key and finishes the rest', async () => {
    await seed(vaultOf(k1));
    const good = await vaultOf(k1).seal('card-number', '4000000000000010');
    const damaged = Buffer.from(good);
    damaged[20] = damaged[20]! ^ 0xff;
    await insertCard(damaged);
    expect(await rewrapSealedValues(depsOf(vaultOf(k2, k1)), { to: 'k2' }, 2)).toBeUndefined();
    expect(Object.fromEntries(await keyStore.countByKey(pool, ['k1', 'k2']))).toEqual({ k1: 1, k2: 7 });
    // k1 cannot be removed while that value needs it; with k1 the service still starts (the other values open).
    await expect(checkVaultKeys(depsOf(vaultOf(k2)))).rejects.toThrow('key k1 seals 1 stored values');
    await insertCard(await vaultOf(k1).seal('card-number', '4000000000000028'));
    await checkVaultKeys(depsOf(vaultOf(k2, k1)));
  });

  it('is left to a process that seals with its key: later, and dropped for a key this process lacks', async () => {
    await seed(vaultOf(k1));
    const deps = depsOf(vaultOf(k2, k1));
    expect(await rewrapSealedValues(deps, { to: 'k1' })).toEqual({ rescheduleAt: new Date(clock.now().getTime() + 60_000), payload: { to: 'k1', tries: 1 } });
    expect(await rewrapSealedValues(deps, { to: 'k1', tries: 60 })).toBeUndefined();
    expect(await rewrapSealedValues(deps, { to: 'k9' })).toBeUndefined();
    expect(await keyIdsOf()).toEqual(['k1']);
  });
});
