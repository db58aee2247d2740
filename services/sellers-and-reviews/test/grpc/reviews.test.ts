import { randomUUID } from 'node:crypto';
import { eventually } from '@platform/testkit';
import { naturalPerson } from '../fixtures';
import { failureOf, startSellersAndReviews, type RunningSellersAndReviews } from '../support';

let running: RunningSellersAndReviews;

beforeAll(async () => {
  running = await startSellersAndReviews();
});

afterAll(async () => {
  await running.stop();
});

const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600_000);

async function newSeller(clientId: string) {
  return running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId)) });
}

async function statusOf(clientId: string, processId: string, status: string): Promise<void> {
  await eventually(
    async () => ((await running.client.getRegistrationReview({ clientId, processId })).status === status ? true : undefined),
    `review ${processId} ${status}`,
    { timeoutMs: 15_000 },
  );
}

describe('registration reviews over gRPC', () => {
  it('opens a process with pending fields, takes the field list later and records both events', async () => {
    const clientId = randomUUID();
    const seller = await newSeller(clientId);
    const opened = await running.client.openRegistrationReview({
      clientId,
      sellerId: seller.id,
      documentType: '',
      documentNumber: '',
      reviewType: 'acp',
      deadlineAt: inDays(2.5),
      rawGiven: false,
      raw: [],
    });
    expect(opened).toMatchObject({ status: 'pending', requestedFieldsPending: true, daysRemaining: 2, sellerId: seller.id, provider: 'SANDBOX' });
    expect(opened.expiresAt!.getTime() - opened.deadlineAt!.getTime()).toBe(5 * 24 * 3600_000);
    const noList = await failureOf(running.client.submitRegistrationReview({ clientId, processId: opened.processId, fields: {} }));
    expect(noList.businessCode).toBe('registration_review_not_open');
    const listed = await running.client.sendRequestedFields({ clientId, processId: opened.processId, raw: ['company.legal_name'] });
    expect(listed.requestedFieldsPending).toBe(false);
    expect(listed.fields).toEqual([expect.objectContaining({ path: 'business.corporateReason', providerField: 'company.legal_name' })]);
    const { rows } = await running.pool.query(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1`, [clientId]);
    expect(rows.map((r: { subject: string }) => r.subject)).toEqual(
      expect.arrayContaining(['sellers.registration_review.opened', 'sellers.registration_review.fields_requested']),
    );
  });

  it('goes submit_failed on a sandbox_reject value, can be submitted again, and is canceled for good', async () => {
    const clientId = randomUUID();
    const seller = await newSeller(clientId);
    const base = { clientId, sellerId: seller.id, documentType: '', documentNumber: '', reviewType: 'aci', deadlineAt: inDays(5), rawGiven: true };
    const review = await running.client.openRegistrationReview({ ...base, raw: ['legal_representative.name'] });
    await running.client.submitRegistrationReview({ clientId, processId: review.processId, fields: { 'owner.name': 'sandbox_reject' } });
    await statusOf(clientId, review.processId, 'submit_failed');
    const again = await running.client.submitRegistrationReview({ clientId, processId: review.processId, fields: { 'owner.name': 'Ana Maria Souza' } });
    expect(again.status).toBe('submitting');
    await statusOf(clientId, review.processId, 'finished');
    expect((await running.client.getSeller({ clientId, id: seller.id })).owner).toMatchObject({ name: 'Ana Maria Souza' });

    const other = await running.client.openRegistrationReview({ ...base, raw: [] });
    expect((await running.client.cancelRegistrationReview({ clientId, processId: other.processId })).status).toBe('canceled');
    const refused = await failureOf(running.client.submitRegistrationReview({ clientId, processId: other.processId, fields: {} }));
    expect(refused).toMatchObject({ kind: 'business_rule', businessCode: 'registration_review_not_open' });
  });

  it('turns overdue at the deadline by its job', async () => {
    const clientId = randomUUID();
    const seller = await newSeller(clientId);
    const review = await running.client.openRegistrationReview({
      clientId,
      sellerId: seller.id,
      documentType: '',
      documentNumber: '',
      reviewType: 'acp',
      deadlineAt: new Date(Date.now() + 500),
      rawGiven: true,
      raw: ['legal_representative.name'],
    });
    await statusOf(clientId, review.processId, 'overdue');
    expect((await running.client.getRegistrationReview({ clientId, processId: review.processId })).daysRemaining).toBe(-1);
  });

  it("answers not_found for another client's process and a bad status filter as validation", async () => {
    const clientId = randomUUID();
    const seller = await newSeller(clientId);
    const review = await running.client.openRegistrationReview({
      clientId,
      sellerId: seller.id,
      documentType: '',
      documentNumber: '',
      reviewType: 'acp',
      deadlineAt: inDays(3),
      rawGiven: false,
      raw: [],
    });
    expect((await failureOf(running.client.getRegistrationReview({ clientId: randomUUID(), processId: review.processId }))).kind).toBe('not_found');
    expect((await failureOf(running.client.listRegistrationReviews({ clientId, statuses: ['open'] }))).kind).toBe('validation');
    expect((await running.client.listRegistrationReviews({ clientId: randomUUID(), statuses: [] })).items).toEqual([]);
  });
});
