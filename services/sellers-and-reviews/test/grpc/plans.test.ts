import { randomUUID } from 'node:crypto';
import { payouts } from '@platform/contracts';
import { AppError, createLogger, errors, implement, startGrpcServer, type RunningGrpcServer } from '@platform/kit';
import { naturalPerson } from '../fixtures';
import { failureOf, startSellersAndReviews, type RunningSellersAndReviews } from '../support';

async function outboxSubjects(running: RunningSellersAndReviews, clientId: string): Promise<string[]> {
  const { rows } = await running.pool.query(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1 ORDER BY id`, [clientId]);
  return rows.map((r: { subject: string }) => r.subject);
}

async function sellerCount(running: RunningSellersAndReviews, clientId: string): Promise<number> {
  return (await running.client.listSellers({ clientId, statuses: [] })).meta!.totalItems;
}

describe("a seller's planId (payouts port faked)", () => {
  let running: RunningSellersAndReviews;

  beforeAll(async () => {
    running = await startSellersAndReviews();
  });

  afterAll(async () => {
    await running.stop();
  });

  it("creates a seller on a plan of the caller, after asking payouts for it", async () => {
    const clientId = randomUUID();
    const planId = running.plans.add(clientId);
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId), { planId }) });
    expect(seller.planId).toBe(planId);
    expect(running.plans.asked).toContainEqual({ clientId, planId });
    expect((await running.client.getSeller({ clientId, id: seller.id })).planId).toBe(planId);
  });

  it("refuses another client's plan and an unknown one with 422 plan_not_found naming planId, and stores nothing", async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    for (const planId of [running.plans.add(randomUUID()), randomUUID()]) {
      const failure = await failureOf(running.client.createSeller({ clientId, seller: naturalPerson(merchantId, { planId }) }));
      expect(failure).toMatchObject({ kind: 'business_rule', businessCode: 'plan_not_found' });
      expect(failure.message).toContain('planId');
      expect(failure.details).toEqual([{ field: 'planId', message: 'is not a plan of this client' }]);
    }
    expect(await sellerCount(running, clientId)).toBe(0);
    expect(await outboxSubjects(running, clientId)).toEqual([]);
  });

  it("without a planId, or with an empty one, the seller is on the client's default plan and payouts is not asked", async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const none = await running.client.createSeller({ clientId, seller: naturalPerson(merchantId) });
    const empty = await running.client.createSeller({ clientId, seller: naturalPerson(merchantId, { planId: '  ' }) });
    expect([none.planId, empty.planId]).toEqual(['', '']);
    expect(running.plans.asked.filter((q) => q.clientId === clientId)).toEqual([]);
  });

  it('PATCH checks a planId given: a plan of the caller moves the seller, a foreign one changes nothing', async () => {
    const clientId = randomUUID();
    const first = running.plans.add(clientId);
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId), { planId: first }) });
    const second = running.plans.add(clientId);
    expect((await running.client.updateSeller({ clientId, id: seller.id, changes: { planId: second } })).planId).toBe(second);
    const eventsBefore = await outboxSubjects(running, clientId);
    const foreign = await failureOf(running.client.updateSeller({ clientId, id: seller.id, changes: { planId: running.plans.add(randomUUID()), mcc: 5812 } }));
    expect(foreign).toMatchObject({ kind: 'business_rule', businessCode: 'plan_not_found' });
    expect(await running.client.getSeller({ clientId, id: seller.id })).toMatchObject({ planId: second, mcc: '5411' });
    expect(await outboxSubjects(running, clientId)).toEqual(eventsBefore);
  });

  it('PATCH without planId does not ask payouts; an empty planId returns the seller to the default plan unasked', async () => {
    const clientId = randomUUID();
    const planId = running.plans.add(clientId);
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId), { planId }) });
    const asked = () => running.plans.asked.filter((q) => q.clientId === clientId).length;
    expect(asked()).toBe(1);
    expect((await running.client.updateSeller({ clientId, id: seller.id, changes: { mcc: 5812 } })).planId).toBe(planId);
    expect((await running.client.updateSeller({ clientId, id: seller.id, changes: { planId: '' } })).planId).toBe('');
    expect(asked()).toBe(1);
  });

  it('a planId that is not text is a 400 naming it, before payouts is asked', async () => {
    const clientId = randomUUID();
    const failure = await failureOf(running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId), { planId: 42 }) }));
    expect(failure.kind).toBe('validation');
    expect(failure.details).toEqual([expect.objectContaining({ field: 'planId' })]);
    expect(running.plans.asked.filter((q) => q.clientId === clientId)).toEqual([]);
  });
});

describe("a seller's planId (the real payouts client, over gRPC)", () => {
  const OWNER = randomUUID();
  const PLAN_ID = randomUUID();
  const BROKEN_PLAN_ID = randomUUID();
  const asked: payouts.GetPlanRequest[] = [];
  let payoutsServer: RunningGrpcServer;
  let running: RunningSellersAndReviews;

  beforeAll(async () => {
    const log = createLogger({ name: 'fake-payouts', level: 'silent' });
    const definition = { getPlan: payouts.PayoutsServiceService.getPlan };
    const implementation = implement(
      definition,
      {
        getPlan: async (request) => {
          asked.push(request);
          if (request.id === BROKEN_PLAN_ID) throw errors.unavailable('the ledger database is down');
          if (request.id !== PLAN_ID || request.clientId !== OWNER) throw errors.notFound('plan', request.id);
          return payouts.Plan.fromPartial({ id: PLAN_ID, clientId: OWNER, name: 'Standard', isDefault: false });
        },
      },
      log,
    );
    payoutsServer = await startGrpcServer({ host: '127.0.0.1', port: 0, log, services: [{ name: 'payouts.v1.PayoutsService', definition, implementation }] });
    running = await startSellersAndReviews({ plans: undefined }, { PAYOUTS_AND_PREPAYMENT_GRPC_URL: `127.0.0.1:${payoutsServer.port}` });
  });

  afterAll(async () => {
    await running.stop();
    await payoutsServer.shutdown(1000);
  });

  it("asks GetPlan scoped by the caller: its own plan is taken, another client's is 422 plan_not_found", async () => {
    const seller = await running.client.createSeller({ clientId: OWNER, seller: naturalPerson(running.merchants.add(OWNER), { planId: PLAN_ID }) });
    expect(seller.planId).toBe(PLAN_ID);
    expect(asked.at(-1)).toEqual({ clientId: OWNER, id: PLAN_ID });
    const stranger = randomUUID();
    const failure = await failureOf(running.client.createSeller({ clientId: stranger, seller: naturalPerson(running.merchants.add(stranger), { planId: PLAN_ID }) }));
    expect(failure).toMatchObject({ kind: 'business_rule', businessCode: 'plan_not_found', details: [{ field: 'planId', message: 'is not a plan of this client' }] });
    expect(asked.at(-1)).toEqual({ clientId: stranger, id: PLAN_ID });
    expect(await sellerCount(running, stranger)).toBe(0);
  });

  it('a malformed planId is an unknown plan, refused without asking', async () => {
    const before = asked.length;
    const failure = await failureOf(running.client.createSeller({ clientId: OWNER, seller: naturalPerson(running.merchants.add(OWNER), { planId: 'gold-plan' }) }));
    expect(failure.businessCode).toBe('plan_not_found');
    expect(asked).toHaveLength(before);
  });

  it('payouts failing otherwise is not read as a missing plan: its error comes through and nothing is stored', async () => {
    const clientId = randomUUID();
    const failure = await failureOf(running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId), { planId: BROKEN_PLAN_ID }) }));
    expect(failure).toBeInstanceOf(AppError);
    expect(failure.kind).toBe('unavailable');
    expect(failure.businessCode).toBeUndefined();
    expect(await sellerCount(running, clientId)).toBe(0);
  });
});
