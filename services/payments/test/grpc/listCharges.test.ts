import { randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { cardCharge, cardNumberEnding, createMerchant, failureOf, pixCharge, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

const list = (request: Partial<payments.ListChargesRequest> & { clientId: string }) => running.client.listCharges({ status: [], paymentType: [], providerType: [], ...request });
const idsOf = (response: payments.ListChargesResponse) => response.items.map((c) => c.id);

/** A day a month ahead (UTC), so that the dates of this suite belong to it alone; cards stay valid for years. */
const base = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 30 * 86_400_000);
const at = (days: number, time: string) => new Date(`${dayOf(days)}T${time}Z`);
const dayOf = (days: number) => new Date(base.getTime() + days * 86_400_000).toISOString().slice(0, 10);

describe('ListCharges', () => {
  const clientId = randomUUID();
  const sessionId = randomUUID();
  let merchantA: payments.Merchant;
  let merchantB: payments.Merchant;
  let day1Card: payments.Charge;
  let day1Pix: payments.Charge;
  let day2Failed: payments.Charge;
  let day2Session: payments.Charge;
  let day3Sub: payments.Charge;

  beforeAll(async () => {
    merchantA = await createMerchant(running.client, clientId);
    merchantB = await createMerchant(running.client, clientId, [{ name: 'own', priority: 1, type: 'SUBACQUIRER' }]);
    running.clock.set(at(0, '10:00:00'));
    day1Card = await running.client.createCharge(cardCharge(clientId, merchantA.id, cardNumberEnding('1'), { orderId: 'order-1' }));
    running.clock.set(at(0, '18:00:00'));
    day1Pix = await running.client.createCharge(pixCharge(clientId, merchantA.id, { orderId: 'order-2' }));
    running.clock.set(at(1, '09:00:00'));
    day2Failed = await running.client.createCharge(cardCharge(clientId, merchantA.id, cardNumberEnding('5')));
    running.clock.set(at(1, '23:59:59.999'));
    day2Session = await running.client.createCharge(cardCharge(clientId, merchantA.id, cardNumberEnding('1'), { sessionId, capture: false }));
    running.clock.set(at(2, '00:00:00'));
    // The platform's own acquirer has no adapter here: the charge fails over to nothing and fails.
    day3Sub = await running.client.createCharge(cardCharge(clientId, merchantB.id, cardNumberEnding('1')));
    running.clock.resume();
    // Another client's charge never shows.
    const other = randomUUID();
    const otherMerchant = await createMerchant(running.client, other);
    await running.client.createCharge(cardCharge(other, otherMerchant.id, cardNumberEnding('1'), { orderId: 'order-1' }));
  });

  it('lists the client charges newest first, with their transaction requests', async () => {
    const all = await list({ clientId });
    expect(idsOf(all)).toEqual([day3Sub.id, day2Session.id, day2Failed.id, day1Pix.id, day1Card.id]);
    expect(all.meta).toEqual({ itemCount: 5, totalItems: 5, itemsPerPage: 10, totalPages: 1, currentPage: 1 });
    expect(all.items[4]).toEqual(day1Card);
    expect(day3Sub).toMatchObject({ status: 'failed', declinedCode: 'try_again', providerType: 'SUBACQUIRER' });
  });

  it('pages, and sorts oldest first when asked', async () => {
    const page2 = await list({ clientId, page: { page: 2, limit: 2, sort: '' } });
    expect(idsOf(page2)).toEqual([day2Failed.id, day1Pix.id]);
    expect(page2.meta).toEqual({ itemCount: 2, totalItems: 5, itemsPerPage: 2, totalPages: 3, currentPage: 2 });
    const asc = await list({ clientId, page: { page: 1, limit: 2, sort: 'ASC' } });
    expect(idsOf(asc)).toEqual([day1Card.id, day1Pix.id]);
  });

  it('filters by merchant, id, session, order and provider type', async () => {
    expect(idsOf(await list({ clientId, merchantId: merchantB.id }))).toEqual([day3Sub.id]);
    expect(idsOf(await list({ clientId, id: day1Pix.id }))).toEqual([day1Pix.id]);
    expect(idsOf(await list({ clientId, sessionId }))).toEqual([day2Session.id]);
    expect(idsOf(await list({ clientId, orderId: 'order-1' }))).toEqual([day1Card.id]);
    expect(idsOf(await list({ clientId, providerType: ['subacquirer'] }))).toEqual([day3Sub.id]);
    expect(idsOf(await list({ clientId, providerType: ['SANDBOX'] }))).toEqual([day2Session.id, day2Failed.id, day1Pix.id, day1Card.id]);
    expect(idsOf(await list({ clientId, id: 'not-a-uuid' }))).toEqual([]);
  });

  it('filters by one or several statuses and by payment type', async () => {
    expect(idsOf(await list({ clientId, status: ['failed'] }))).toEqual([day3Sub.id, day2Failed.id]);
    expect(idsOf(await list({ clientId, status: ['pending,pre_authorized'] }))).toEqual([day2Session.id, day1Pix.id]);
    expect(idsOf(await list({ clientId, status: ['authorized', 'pending'] }))).toEqual([day1Pix.id, day1Card.id]);
    expect(idsOf(await list({ clientId, paymentType: ['pix'] }))).toEqual([day1Pix.id]);
    expect(idsOf(await list({ clientId, paymentType: ['pix,credit'] }))).toEqual([day3Sub.id, day2Session.id, day2Failed.id, day1Pix.id, day1Card.id]);
    expect(idsOf(await list({ clientId, providerType: ['subacquirer', 'none'] }))).toEqual([day3Sub.id]);
  });

  it('filters by original amount and by having split rules, as the public Node SDK sends them', async () => {
    expect(idsOf(await list({ clientId, originalAmount: day1Pix.originalAmount, id: day1Pix.id }))).toEqual([day1Pix.id]);
    expect(idsOf(await list({ clientId, originalAmount: day1Pix.originalAmount + 1, id: day1Pix.id }))).toEqual([]);
    expect(idsOf(await list({ clientId, hasSplitRules: false }))).toHaveLength(5);
    expect(idsOf(await list({ clientId, hasSplitRules: true }))).toEqual([]);
  });

  it('filters by creation day and by bounds', async () => {
    expect(idsOf(await list({ clientId, created: dayOf(1) }))).toEqual([day2Session.id, day2Failed.id]);
    expect(idsOf(await list({ clientId, created: at(0, '18:00:00').toISOString() }))).toEqual([day1Pix.id]);
    expect(idsOf(await list({ clientId, createdGt: at(0, '10:00:00'), createdLt: at(2, '00:00:00') }))).toEqual([
      day2Session.id,
      day2Failed.id,
      day1Pix.id,
    ]);
  });

  it('refuses unknown statuses and malformed dates', async () => {
    const error = await failureOf(list({ clientId, status: ['paid'], created: 'May 2nd' }));
    expect(error.kind).toBe('validation');
    expect((error.details ?? []).map((d) => d.field).sort()).toEqual(['created', 'status']);
  });
});

describe('GetCharge', () => {
  it('answers the charge with its transaction requests in time order', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { capture: false }));
    await running.client.captureCharge({ clientId, id: charge.id, amount: 400 });
    await running.client.voidCharge({ clientId, id: charge.id, amount: 100, splitRules: [] });
    const got = await running.client.getCharge({ clientId, id: charge.id });
    expect(got.transactionRequests.map((r) => r.requestType)).toEqual(['authorization', 'capture', 'refund']);
    const times = got.transactionRequests.map((r) => r.createdAt!.getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('answers not_found for another client, an unknown or a malformed id', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect((await failureOf(running.client.getCharge({ clientId: randomUUID(), id: charge.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.getCharge({ clientId, id: randomUUID() }))).kind).toBe('not_found');
    expect((await failureOf(running.client.getCharge({ clientId, id: 'x' }))).kind).toBe('not_found');
  });
});
