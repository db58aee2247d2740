import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger, JobRunner, type Pool } from '@platform/kit';
import { ERASE_EXPIRED_TOKEN_CVVS, scheduleVaultMaintenance, vaultJobs } from '../../src/app/vaultJobs';
import { createTokenStore, type StoredToken } from '../../src/store/tokenStore';
import { startStoreDatabase, TestClock } from '../merchants/fixtures';

let pool: Pool;
const clock = new TestClock();
const log = createLogger({ name: 'vault-jobs-test', level: 'silent' });

beforeAll(async () => {
  pool = await startStoreDatabase('payments_vault_jobs');
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
  };
}

async function jobsOfKind(): Promise<Array<{ status: string; run_at: Date; dedupe_key: string }>> {
  return (await pool.query('SELECT status, run_at, dedupe_key FROM jobs WHERE kind = $1', [ERASE_EXPIRED_TOKEN_CVVS])).rows;
}

async function cvvOf(id: string): Promise<Buffer | null> {
  return (await pool.query('SELECT cvv_encrypted FROM card_tokens WHERE id = $1', [id])).rows[0].cvv_encrypted;
}

describe('scheduleVaultMaintenance', () => {
  it('schedules one job however many replicas start', async () => {
    await Promise.all([scheduleVaultMaintenance(pool), scheduleVaultMaintenance(pool), scheduleVaultMaintenance(pool)]);
    expect(await jobsOfKind()).toEqual([{ status: 'pending', run_at: expect.any(Date), dedupe_key: ERASE_EXPIRED_TOKEN_CVVS }]);
  });
});

describe(ERASE_EXPIRED_TOKEN_CVVS, () => {
  it('erases the CVV of expired tokens, keeps live ones, and runs again a minute later', async () => {
    const tokens = createTokenStore();
    const expired = token(new Date(clock.now().getTime() - 1000));
    const live = token(new Date(clock.now().getTime() + 60_000));
    await tokens.insert(pool, expired);
    await tokens.insert(pool, live);
    await scheduleVaultMaintenance(pool);

    const runner = new JobRunner({ pool, log, handlers: vaultJobs({ pool, clock, log }) });
    const before = Date.now();
    expect(await runner.runDue()).toBe(1);
    expect(await cvvOf(expired.id)).toBeNull();
    expect(await cvvOf(live.id)).toEqual(live.cvvSealed);

    const [job] = await jobsOfKind();
    expect(job!.status).toBe('pending');
    expect(job!.run_at.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(await runner.runDue()).toBe(0);

    clock.advance(120_000);
    const outcome = await vaultJobs({ pool, clock, log })[ERASE_EXPIRED_TOKEN_CVVS]!({
      id: randomUUID(),
      kind: ERASE_EXPIRED_TOKEN_CVVS,
      payload: {},
      runAt: new Date(),
      attempts: 1,
      maxAttempts: 1,
    });
    expect(outcome).toEqual({ rescheduleAt: expect.any(Date) });
    expect(await cvvOf(live.id)).toBeNull();
  });
});
