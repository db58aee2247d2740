import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger, JobRunner, listJobs, migrateJobs, scheduleJob, type Pool } from '@platform/kit';
import { ERASE_EXPIRED_TOKEN_CVVS, vaultCron, vaultJobs } from '../../src/modules/vault/app/vaultJobs';
import { createTokenStore, type StoredToken } from '../../src/modules/vault/store/tokenStore';
import { ManualClock } from '@platform/testkit';
import { startStoreDatabase } from '../support/fixtures';
import { vaultFromConfig } from '../../src/modules/vault/crypto/keyRing';

let pool: Pool;
const clock = new ManualClock();
const log = createLogger({ name: 'vault-jobs-test', level: 'silent' });
const vault = vaultFromConfig({ CARD_ENCRYPTION_KEYS: [{ id: 'k1', key: randomBytes(32) }], CARD_FINGERPRINT_KEY: randomBytes(32) });

beforeAll(async () => {
  pool = await startStoreDatabase('payments_vault_jobs');
  await migrateJobs(pool, log);
});

afterAll(async () => {
  await pool.end();
});

function token(expiresAt: Date): StoredToken {
  return {
    id: randomUUID(),
    clientId: randomUUID(),
    panSealed: randomBytes(40),
    cvvSealed: randomBytes(32),
    holderName: 'Ana Lima',
    expirationMonth: 1,
    expirationYear: 2040,
    brand: 'visa',
    first6: '411111',
    last4: '1111',
    fingerprint: 'fp',
    expiresAt,
    usedAt: null,
    createdAt: new Date(expiresAt.getTime() - 900_000),
    sessionId: null,
  };
}

async function cvvOf(id: string): Promise<Buffer | null> {
  return (await pool.query('SELECT cvv_encrypted FROM card_tokens WHERE id = $1', [id])).rows[0].cvv_encrypted;
}

describe(ERASE_EXPIRED_TOKEN_CVVS, () => {
  it('runs every minute from a cron schedule, each run once across replicas and not retried', () => {
    expect(vaultCron).toEqual([{ kind: ERASE_EXPIRED_TOKEN_CVVS, pattern: '* * * * *', maxAttempts: 1 }]);
    // The runner refuses a schedule whose kind has no handler: this one has.
    expect(() => new JobRunner({ pool, log, handlers: vaultJobs({ pool, clock, log, vault }), cron: vaultCron })).not.toThrow();
  });

  it('erases the CVV of expired tokens and keeps live ones', async () => {
    const tokens = createTokenStore();
    const expired = token(new Date(clock.now().getTime() - 1000));
    const live = token(new Date(clock.now().getTime() + 60_000));
    await tokens.insert(pool, expired);
    await tokens.insert(pool, live);
    await scheduleJob(pool, { kind: ERASE_EXPIRED_TOKEN_CVVS, runAt: new Date(), maxAttempts: 1 });

    const runner = new JobRunner({ pool, log, handlers: vaultJobs({ pool, clock, log, vault }), cron: vaultCron });
    expect(await runner.runDue()).toBe(1);
    expect(await cvvOf(expired.id)).toBeNull();
    expect(await cvvOf(live.id)).toEqual(live.cvvSealed);
    // The run finished: the next one comes from the schedule, not from the job rescheduling itself.
    expect(await listJobs(pool, ERASE_EXPIRED_TOKEN_CVVS)).toEqual([]);
    expect(await runner.runDue()).toBe(0);

    clock.advance(120_000);
    await scheduleJob(pool, { kind: ERASE_EXPIRED_TOKEN_CVVS, runAt: new Date(), maxAttempts: 1 });
    expect(await runner.runDue()).toBe(1);
    expect(await cvvOf(live.id)).toBeNull();
  });
});
