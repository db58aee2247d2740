import { randomUUID } from 'node:crypto';
import { errors, isUuid, jsonCodec, pageMeta, requireClientId, toPage, withIdempotency, withTransaction, type PageInput, type PageMeta, type Queryable } from '@platform/kit';
import {
  DEFAULT_FEES,
  DEFAULT_PLAN_NAME,
  DEFAULT_PREPAYMENT_MONTHLY_RATE,
  DEFAULT_SETTLEMENT_DAYS,
  parseMonthlyRate,
  parsePlanFeeTable,
  parsePlanName,
  parseSettlementDays,
  type PaymentType,
  type Plan,
  type PlanFee,
} from '../domain/plan';
import type { PayoutsDeps } from './deps';

/** The default plan every client gets with its first use. */
function defaultPlan(clientId: string, now: Date): Plan {
  return {
    id: randomUUID(),
    clientId,
    name: DEFAULT_PLAN_NAME,
    isDefault: true,
    fees: DEFAULT_FEES.map((f) => ({ ...f })),
    settlementDays: { ...DEFAULT_SETTLEMENT_DAYS },
    prepaymentMonthlyRate: DEFAULT_PREPAYMENT_MONTHLY_RATE,
    createdAt: now,
    updatedAt: now,
  };
}

/** The client's default plan, created with its first use. */
export async function defaultPlanOf(deps: PayoutsDeps, db: Queryable, clientId: string, now: Date): Promise<Plan> {
  return (await deps.planStore.findDefault(db, clientId)) ?? deps.planStore.ensureDefault(db, defaultPlan(clientId, now));
}

/** The plan of a receiver: a seller's own plan when it has one (as the sellers service last said), else the default. */
export async function planOfReceiver(deps: PayoutsDeps, db: Queryable, clientId: string, receiver: string | null, now: Date): Promise<Plan> {
  if (receiver !== null) {
    const seller = await deps.sellerStore.find(db, clientId, receiver);
    if (seller?.planId) {
      const own = await deps.planStore.findById(db, clientId, seller.planId);
      if (own) return own;
    }
  }
  return defaultPlanOf(deps, db, clientId, now);
}

export interface PlanInput {
  name?: string;
  isDefault?: boolean;
  fees?: unknown[];
  replaceFees?: boolean;
  settlementDays?: Partial<Record<PaymentType, number | undefined>>;
  prepaymentMonthlyRate?: number;
}

async function load(deps: PayoutsDeps, db: Queryable, clientId: string, id: string, forUpdate = false): Promise<Plan> {
  const plan = isUuid(id) ? await deps.planStore.findById(db, clientId, id.toLowerCase(), { forUpdate }) : null;
  if (!plan) throw errors.notFound('Plan', id);
  return plan;
}

export const CREATE_PLAN_OPERATION = 'payouts.plans.create';

const planCodec = jsonCodec<Plan>();

/** Validates the plan before the idempotency key is claimed; the same X-Idempotency-Key answers the same plan again. */
export async function createPlan(deps: PayoutsDeps, input: { clientId: string } & PlanInput, idempotencyKey?: string): Promise<Plan> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  const plan: Plan = {
    id: randomUUID(),
    clientId,
    name: parsePlanName(input.name ?? ''),
    isDefault: input.isDefault === true,
    fees: input.fees && input.fees.length > 0 ? parsePlanFeeTable(input.fees) : DEFAULT_FEES.map((f) => ({ ...f })),
    settlementDays: parseSettlementDays(input.settlementDays ?? {}, DEFAULT_SETTLEMENT_DAYS),
    prepaymentMonthlyRate: parseMonthlyRate(input.prepaymentMonthlyRate ?? DEFAULT_PREPAYMENT_MONTHLY_RATE),
    createdAt: now,
    updatedAt: now,
  };
  return withIdempotency(deps.pool, { clientId, key: idempotencyKey, operation: CREATE_PLAN_OPERATION, request: input, codec: planCodec }, async (tx) => {
    // The client has its default plan from its first use; a new plan asked to be the default takes its place.
    await defaultPlanOf(deps, tx, clientId, now);
    if (plan.isDefault) {
      await deps.planStore.lockDefault(tx, clientId);
      await deps.planStore.clearDefault(tx, clientId, now);
    }
    await deps.planStore.insert(tx, plan);
    return plan;
  });
}

export async function getPlan(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<Plan> {
  return load(deps, deps.pool, requireClientId(input.clientId), input.id);
}

export async function listPlans(deps: PayoutsDeps, input: { clientId: string; page?: PageInput }): Promise<{ items: Plan[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  // A client always has its default plan to show.
  await withTransaction(deps.pool, (tx) => defaultPlanOf(deps, tx, clientId, deps.clock.now()));
  const page = toPage(input.page);
  const { items, total } = await deps.planStore.list(deps.pool, clientId, page);
  return { items, meta: pageMeta(page, items.length, total) };
}

export async function updatePlan(deps: PayoutsDeps, input: { clientId: string; id: string } & PlanInput): Promise<Plan> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  if (input.isDefault === false) {
    throw errors.validation('isDefault can only be set to true: another plan becomes the default by being set', [{ field: 'isDefault', message: 'must be true' }]);
  }
  return withTransaction(deps.pool, async (tx) => {
    const plan = await load(deps, tx, clientId, input.id, true);
    const fees: PlanFee[] = input.replaceFees ? parsePlanFeeTable(input.fees ?? []) : plan.fees;
    const next: Plan = {
      ...plan,
      name: input.name === undefined ? plan.name : parsePlanName(input.name),
      fees,
      settlementDays: parseSettlementDays(input.settlementDays ?? {}, plan.settlementDays),
      prepaymentMonthlyRate: input.prepaymentMonthlyRate === undefined ? plan.prepaymentMonthlyRate : parseMonthlyRate(input.prepaymentMonthlyRate),
      updatedAt: now,
    };
    if (input.isDefault === true && !plan.isDefault) {
      await deps.planStore.lockDefault(tx, clientId);
      await deps.planStore.clearDefault(tx, clientId, now);
      next.isDefault = true;
    }
    await deps.planStore.update(tx, next);
    return next;
  });
}
