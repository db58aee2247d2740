import path from 'node:path';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';
import { carryCardKey, countSealedWith, nextKeyId, parseRing, ringValue, withNewKey } from '../src/rotateCardKey';

const a = 'a'.repeat(64);
const b = 'b'.repeat(64);

describe('the local card key ring', () => {
  it('reads id:key entries in order, an entry without an id being k0', () => {
    expect(parseRing(` k2:${a}, ${b} ,`)).toEqual([
      { id: 'k2', key: a },
      { id: 'k0', key: b },
    ]);
    expect(ringValue(parseRing(`k2:${a},${b}`))).toBe(`k2:${a},k0:${b}`);
  });

  it('puts a fresh key first, under the next k<n>', () => {
    expect(nextKeyId(parseRing(a))).toBe('k1');
    expect(nextKeyId(parseRing(`k7:${a},other:${b}`))).toBe('k8');
    expect(nextKeyId(parseRing(`other:${a}`))).toBe('k0');
    const added = withNewKey(parseRing(a));
    expect(added.id).toBe('k1');
    expect(added.ring.map((e) => e.id)).toEqual(['k1', 'k0']);
    expect(added.ring[0]!.key).toMatch(/^[0-9a-f]{64}$/);
    expect(added.ring[0]!.key).not.toBe(withNewKey(parseRing(a)).ring[0]!.key);
  });

  it('carries the single card key of an older key file into the ring as k0', () => {
    expect(carryCardKey({ CARD_ENCRYPTION_KEY: a, CARD_FINGERPRINT_KEY: b })).toEqual({
      keys: { CARD_ENCRYPTION_KEYS: `k0:${a}`, CARD_FINGERPRINT_KEY: b },
      changed: true,
    });
    expect(carryCardKey({ CARD_ENCRYPTION_KEYS: `k1:${b}`, CARD_ENCRYPTION_KEY: a })).toEqual({ keys: { CARD_ENCRYPTION_KEYS: `k1:${b},k0:${a}` }, changed: true });
    const current = { CARD_ENCRYPTION_KEYS: `k1:${b},k0:${a}` };
    expect(carryCardKey(current)).toEqual({ keys: current, changed: false });
  });
});

describe('countSealedWith (the check before an old key is removed)', () => {
  it('counts the stored values of the payments database sealed with the given keys', async () => {
    const url = await createTestDatabase('devstack_card_keys');
    const log = createLogger({ name: 'devstack-card-keys-test', level: 'silent' });
    const pool = createPool({ url, log });
    try {
      await migrate(pool, [KIT_MIGRATIONS_DIR, path.resolve(__dirname, '..', '..', '..', 'services', 'payments', 'migrations')], log);
      // Two values of format 2 under k1 (version, id length, id, wrapped key length, ...) and one of format 1 (k0).
      const underK1 = Buffer.concat([Buffer.from([2, 2]), Buffer.from('k1'), Buffer.from([0, 1, 9]), Buffer.alloc(40)]);
      const format1 = Buffer.concat([Buffer.from([1]), Buffer.alloc(40)]);
      for (const sealed of [underK1, format1]) {
        await pool.query(
          `INSERT INTO cards (id, client_id, brand, holder_name, first6, last4, exp_month, exp_year, pan_encrypted, fingerprint)
           VALUES (gen_random_uuid(), gen_random_uuid(), 'visa', 'Ana', '411111', '1111', 1, 2040, $1, 'fp')`,
          [sealed],
        );
      }
      await pool.query(
        `INSERT INTO card_tokens (id, client_id, pan_encrypted, cvv_encrypted, holder_name, exp_month, exp_year, brand, first6, last4, fingerprint, expires_at)
         VALUES (gen_random_uuid(), gen_random_uuid(), $1, $1, 'Ana', 1, 2040, 'visa', '411111', '1111', 'fp', now())`,
        [underK1],
      );
      expect(await countSealedWith(url, ['k1'])).toBe(3);
      expect(await countSealedWith(url, ['k0'])).toBe(1);
      expect(await countSealedWith(url, ['k0', 'k1'])).toBe(4);
      expect(await countSealedWith(url, ['k2'])).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('answers 0 when the payments database does not exist yet', async () => {
    const url = new URL(await createTestDatabase('devstack_card_keys_none'));
    url.pathname = '/no_such_payments_database';
    expect(await countSealedWith(url.toString(), ['k0'])).toBe(0);
    // A server that does not answer is not taken for an empty database.
    url.port = '1';
    await expect(countSealedWith(url.toString(), ['k0'])).rejects.toThrow();
  });
});
