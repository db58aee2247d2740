import { randomUUID } from 'node:crypto';
import { createLogger, listJobs } from '@platform/kit';
import { ManualClock } from '@platform/testkit';
import type { SellerDeps } from '../../src/app/deps';
import { defaultAdapters } from '../../src/app/providers';
import { REVIEW_JOBS } from '../../src/app/reviewChanges';
import { reviewJobs } from '../../src/app/reviewJobs';
import { createReviewStore } from '../../src/store/reviewStore';
import { createSellerStore } from '../../src/store/sellerStore';
import { naturalPerson } from '../fixtures';
import { startSellersAndReviews, type RunningSellersAndReviews } from '../support';

/**
 * The sandbox simulates a provider that opens a process already late: a deadline in the past opens it `overdue`, and
 * an expiry moments ahead lets an integrator see it expire and the seller blocked. Time is the service's clock, moved
 * by hand; the expiry job is handed to the service's own handler once the clock is past its time.
 */
const clock = new ManualClock(Date.now());
let running: RunningSellersAndReviews;
let deps: SellerDeps;

beforeAll(async () => {
  running = await startSellersAndReviews({ clock });
  deps = {
    pool: running.pool,
    store: createSellerStore(),
    reviews: createReviewStore(),
    merchants: running.merchants,
    plans: running.plans,
    adapters: defaultAdapters(),
    clock,
    log: createLogger({ name: 'sellers-test', level: 'silent' }),
  };
});

afterAll(async () => {
  await running.stop();
});

const MINUTE = 60_000;

async function subjects(clientId: string): Promise<string[]> {
  const { rows } = await running.pool.query<{ subject: string }>(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1 ORDER BY seq`, [clientId]);
  return rows.map((r) => r.subject);
}

describe('a sandbox review opened past its deadline', () => {
  it('opens overdue, expires at its expiresAt by its job and blocks the seller', async () => {
    const clientId = randomUUID();
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId)) });
    expect(seller.status).toBe('active');
    const deadlineAt = new Date(clock.now().getTime() - 2 * 24 * 60 * MINUTE);
    const expiresAt = new Date(clock.now().getTime() + MINUTE);
    const opened = await running.client.openRegistrationReview({
      clientId,
      sellerId: seller.id,
      documentType: '',
      documentNumber: '',
      reviewType: 'acp',
      deadlineAt,
      expiresAt,
      rawGiven: true,
      raw: ['legal_representative.name'],
    });
    expect(opened).toMatchObject({ status: 'overdue', daysRemaining: -2, sellerId: seller.id });
    expect(opened.expiresAt).toEqual(expiresAt);
    expect(await subjects(clientId)).toEqual(
      expect.arrayContaining(['sellers.registration_review.opened', 'sellers.registration_review.fields_requested', 'sellers.registration_review.overdue']),
    );
    // Still submittable while overdue; the expiry is a durable job at expiresAt.
    const expiry = (await listJobs(running.pool, REVIEW_JOBS.expire)).filter((j) => j.dedupeKey === opened.processId);
    expect(expiry.map((j) => j.runAt.getTime())).toEqual([expiresAt.getTime()]);

    clock.advance(MINUTE + 1_000);
    await reviewJobs(deps)[REVIEW_JOBS.expire]!({ ...expiry[0]!, attempts: 1 });

    expect((await running.client.getRegistrationReview({ clientId, processId: opened.processId })).status).toBe('expired');
    const blocked = await running.client.getSeller({ clientId, id: seller.id });
    expect(blocked.status).toBe('blocked');
    expect(blocked.providers.map((p) => p.status)).toEqual(['blocked']);
    expect(await subjects(clientId)).toEqual(expect.arrayContaining(['sellers.registration_review.expired', 'sellers.seller.blocked']));
  });

  it('opens a process with a past deadline and no expiresAt overdue when its default expiry (deadline + 5 days) is ahead', async () => {
    const clientId = randomUUID();
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId)) });
    const deadlineAt = new Date(clock.now().getTime() - 60 * MINUTE);
    const opened = await running.client.openRegistrationReview({
      clientId,
      sellerId: seller.id,
      documentType: '',
      documentNumber: '',
      reviewType: 'aci',
      deadlineAt,
      rawGiven: false,
      raw: [],
    });
    expect(opened).toMatchObject({ status: 'overdue', requestedFieldsPending: true });
    expect(opened.expiresAt!.getTime() - deadlineAt.getTime()).toBe(5 * 24 * 60 * MINUTE);
  });
});
