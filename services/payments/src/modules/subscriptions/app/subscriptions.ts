import { randomUUID } from 'node:crypto';
import { checkBeforeChange, errors, isUuid, jsonCodec, pageMeta, requireClientId, scheduleJob, toPage, withIdempotency, withTransaction, type PageInput, type PageMeta, type Queryable } from '@platform/kit';
import { parseSplitRules, type SplitRuleInput } from '../../charges/domain/splitRules';
import { nextSubscriptionStatus } from '../domain/subscriptionStatus';
import { cycleDueAt, type Interval } from '../domain/calendar';
import { parseItems, parseNewSubscription, type NewSubscriptionInput } from '../domain/newSubscription';
import type { CycleRecord, SubscriptionRecord } from '../domain/subscription';
import { recordSubscriptionEvent, SUBSCRIPTION_EVENTS } from '../events/subscriptionEvents';
import type { SubscriptionStore } from '../store/subscriptionStore';
import { BILL_CYCLE_JOB, type SubscriptionDeps } from './deps';

/** The job key of an attempt: one job per cycle and attempt, however often it is scheduled. */
export function attemptJobKey(cycleId: string, attempt: number): string {
  return `${cycleId}:${attempt}`;
}

export async function scheduleAttempt(tx: Queryable, cycle: Pick<CycleRecord, 'id' | 'clientId'>, attempt: number, at: Date): Promise<void> {
  await scheduleJob(tx, { kind: BILL_CYCLE_JOB, runAt: at, payload: { clientId: cycle.clientId, cycleId: cycle.id, attempt }, dedupeKey: attemptJobKey(cycle.id, attempt) });
}

/** Creates cycle `number` of the subscription, due on its schedule, with the job of its first attempt. */
export async function openCycle(store: SubscriptionStore, tx: Queryable, subscription: SubscriptionRecord, number: number, now: Date): Promise<CycleRecord> {
  const dueAt = cycleDueAt(subscription.anchor, subscription.interval as Interval, number);
  const cycle: CycleRecord = {
    id: randomUUID(),
    clientId: subscription.clientId,
    subscriptionId: subscription.id,
    number,
    status: 'scheduled',
    amount: subscription.amount,
    dueAt,
    nextAttemptAt: dueAt,
    retryDays: null,
    cancelAfterAllRetries: null,
    attempts: [],
    createdAt: now,
    updatedAt: now,
  };
  if (await store.insertCycle(tx, cycle)) await scheduleAttempt(tx, cycle, 1, dueAt);
  return cycle;
}

async function load(store: SubscriptionStore, db: Queryable, clientId: string, id: string, forUpdate = false): Promise<SubscriptionRecord> {
  const found = isUuid(id) ? await store.find(db, clientId, id.toLowerCase(), { forUpdate }) : null;
  if (!found) throw errors.notFound('Subscription', id);
  return found;
}

/** The subscription with the time its next cycle is due (none when nothing more will be billed). */
export interface SubscriptionView {
  subscription: SubscriptionRecord;
  nextBillingAt: Date | null;
}

async function view(store: SubscriptionStore, db: Queryable, subscription: SubscriptionRecord): Promise<SubscriptionView> {
  return { subscription, nextBillingAt: await store.nextAttemptAt(db, subscription.clientId, subscription.id) };
}

/** The card is a saved card of the caller, linked to the subscription's customer. */
async function requireCustomerCard(deps: SubscriptionDeps, clientId: string, customerId: string, cardId: string): Promise<void> {
  const card = await deps.cards.findById(deps.pool, clientId, cardId);
  if (!card) throw errors.notFound('Card', cardId);
  if (card.customerId !== customerId) throw errors.businessRule('card_not_of_customer', `Card ${cardId} is not a saved card of customer ${customerId}`);
}

export const CREATE_SUBSCRIPTION_OPERATION = 'subscriptions.create';

const subscriptionViewCodec = jsonCodec<SubscriptionView>();

/**
 * Validates the subscription (before the idempotency key is claimed), has every id checked by its owner, then stores
 * it with its first cycle and events. The same X-Idempotency-Key answers the same subscription again.
 */
export async function createSubscription(
  deps: SubscriptionDeps,
  input: { clientId: string; splitRules?: SplitRuleInput[] } & NewSubscriptionInput,
  idempotencyKey?: string,
): Promise<SubscriptionView> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  const parsed = parseNewSubscription(input, now);
  const problems: Array<{ field: string; message: string }> = [];
  const splitRules = parseSplitRules(input.splitRules ?? [], parsed.amount, problems);
  if (problems.length > 0) throw errors.validation(`invalid subscription: ${problems[0]!.field} ${problems[0]!.message}`, problems);
  const subscription: SubscriptionRecord = {
    id: randomUUID(),
    clientId,
    merchantId: parsed.merchantId,
    customerId: parsed.customerId,
    cardId: parsed.cardId,
    name: parsed.name,
    items: parsed.items,
    amount: parsed.amount,
    currency: parsed.currency,
    interval: parsed.interval,
    cycles: parsed.cycles,
    anchor: parsed.anchor,
    startAt: parsed.startAt,
    trialEndAt: parsed.trialEndAt,
    installments: parsed.installments,
    splitRules: splitRules.map((r) => ({
      sellerId: r.sellerId,
      ...(r.percentage !== undefined ? { percentage: r.percentage } : {}),
      ...(r.amount !== undefined ? { amount: r.amount } : {}),
      processingFee: r.processingFee,
      chargeRemainderFee: r.chargeRemainderFee,
      liable: r.liable,
    })),
    status: parsed.trialEndAt ? nextSubscriptionStatus('created', 'trial_started') : 'created',
    pausedFrom: null,
    nextCycle: 2,
    cyclesBilled: 0,
    createdAt: now,
    updatedAt: now,
    canceledAt: null,
    pausedAt: null,
  };
  const idempotency = { clientId, key: idempotencyKey, operation: CREATE_SUBSCRIPTION_OPERATION, request: input, codec: subscriptionViewCodec };
  const created = await withIdempotency(deps.pool, idempotency, {
    // Every id is the caller's, checked by its owner, before anything is stored.
    prepare: () =>
      checkBeforeChange(async () => {
        if (!(await deps.merchants.findMerchant(deps.pool, clientId, parsed.merchantId))) throw errors.notFound('Merchant', parsed.merchantId);
        await deps.customers.requireCustomer(clientId, parsed.customerId);
        await requireCustomerCard(deps, clientId, parsed.customerId, parsed.cardId);
        await deps.sellers.checkSplitReceivers(clientId, parsed.merchantId, splitRules.map((r) => r.sellerId));
      }),
    commit: async (tx) => {
      await deps.subscriptions.insert(tx, subscription);
      await openCycle(deps.subscriptions, tx, subscription, 1, now);
      await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.created, subscription, now);
      if (subscription.status === 'trialing') await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.trialStarted, subscription, now);
      return view(deps.subscriptions, tx, subscription);
    },
  });
  deps.outbox?.kick();
  return created;
}

export async function getSubscription(deps: SubscriptionDeps, input: { clientId: string; id: string }): Promise<SubscriptionView> {
  return view(deps.subscriptions, deps.pool, await load(deps.subscriptions, deps.pool, requireClientId(input.clientId), input.id));
}

export async function listSubscriptions(
  deps: SubscriptionDeps,
  input: { clientId: string; page?: PageInput; statuses?: string[]; customerId?: string },
): Promise<{ items: SubscriptionView[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  if (input.customerId && !isUuid(input.customerId)) throw errors.validation('customerId must be a UUID', [{ field: 'customerId', message: 'must be a UUID' }]);
  const page = toPage(input.page);
  const { items, total } = await deps.subscriptions.list(deps.pool, clientId, { statuses: input.statuses, ...(input.customerId ? { customerId: input.customerId.toLowerCase() } : {}) }, page);
  const views = await Promise.all(items.map((s) => view(deps.subscriptions, deps.pool, s)));
  return { items: views, meta: pageMeta(page, items.length, total) };
}

/** A PUT: new items and card for the cycles still to bill (a cycle already attempted keeps its amount). */
export async function replaceSubscription(
  deps: SubscriptionDeps,
  input: { clientId: string; id: string; name?: string; items: Array<{ name: string; amount: number; quantity: number }>; cardId: string; installments?: number },
): Promise<SubscriptionView> {
  const clientId = requireClientId(input.clientId);
  const { items, amount } = parseItems(input.items);
  if (!isUuid(input.cardId)) throw errors.validation('paymentMethod.card.cardId must be a UUID', [{ field: 'paymentMethod.card.cardId', message: 'must be a UUID' }]);
  const name = input.name === undefined ? undefined : input.name.trim();
  if (name !== undefined && (name.length === 0 || name.length > 200)) throw errors.validation('name must have 1 to 200 characters', [{ field: 'name', message: 'must have 1 to 200 characters' }]);
  const current = await load(deps.subscriptions, deps.pool, clientId, input.id);
  await requireCustomerCard(deps, clientId, current.customerId, input.cardId.toLowerCase());
  const now = deps.clock.now();
  const replaced = await withTransaction(deps.pool, async (tx) => {
    const subscription = await load(deps.subscriptions, tx, clientId, input.id, true);
    if (subscription.status === 'canceled' || subscription.status === 'expired') {
      throw errors.businessRule('subscription_status_transition_not_allowed', `A ${subscription.status} subscription cannot change`);
    }
    const next: SubscriptionRecord = {
      ...subscription,
      items,
      amount,
      cardId: input.cardId.toLowerCase(),
      ...(name !== undefined ? { name } : {}),
      ...(input.installments ? { installments: input.installments } : {}),
      updatedAt: now,
    };
    await deps.subscriptions.update(tx, next);
    for (const cycle of await deps.subscriptions.openCycles(tx, clientId, subscription.id)) {
      if (cycle.attempts.length === 0) await deps.subscriptions.setCycleAmount(tx, clientId, cycle.id, amount, now);
    }
    await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.updated, next, now);
    return view(deps.subscriptions, tx, next);
  });
  deps.outbox?.kick();
  return replaced;
}

/** Cancel: no cycle is billed any more (a cycle waiting for an attempt is canceled). */
export async function cancelSubscription(deps: SubscriptionDeps, input: { clientId: string; id: string }): Promise<SubscriptionView> {
  return changeStatus(deps, input, async (tx, subscription, now) => {
    const next: SubscriptionRecord = { ...subscription, status: nextSubscriptionStatus(subscription.status as never, 'cancel'), canceledAt: now, updatedAt: now };
    await cancelOpenCycles(deps.subscriptions, tx, next, now);
    return { next, event: SUBSCRIPTION_EVENTS.canceled };
  });
}

/** Pause: nothing is billed while paused; a cycle that comes due meanwhile is canceled when its attempt runs. */
export async function pauseSubscription(deps: SubscriptionDeps, input: { clientId: string; id: string }): Promise<SubscriptionView> {
  return changeStatus(deps, input, async (_tx, subscription, now) => ({
    next: { ...subscription, status: nextSubscriptionStatus(subscription.status as never, 'pause'), pausedFrom: subscription.status, pausedAt: now, updatedAt: now },
    event: SUBSCRIPTION_EVENTS.paused,
  }));
}

/**
 * Resume: back to the status it had, and billing continues from the next due date on the schedule; cycles whose time
 * passed while paused are not billed.
 */
export async function resumeSubscription(deps: SubscriptionDeps, input: { clientId: string; id: string }): Promise<SubscriptionView> {
  return changeStatus(deps, input, async (tx, subscription, now) => {
    const status = nextSubscriptionStatus(subscription.status as never, 'resume', { resumeTo: (subscription.pausedFrom ?? 'active') as never });
    const next: SubscriptionRecord = { ...subscription, status, pausedFrom: null, pausedAt: null, updatedAt: now };
    const open = await deps.subscriptions.openCycles(tx, subscription.clientId, subscription.id);
    const ahead = open.filter((c) => c.nextAttemptAt !== null && c.nextAttemptAt.getTime() >= now.getTime());
    for (const missed of open.filter((c) => !ahead.includes(c))) {
      await deps.subscriptions.updateCycle(tx, { ...missed, status: 'canceled', nextAttemptAt: null, updatedAt: now });
    }
    if (ahead.length === 0 && (next.cycles === null || next.cyclesBilled < next.cycles)) {
      let number = next.nextCycle;
      while (cycleDueAt(next.anchor, next.interval as Interval, number).getTime() < now.getTime()) number += 1;
      await openCycle(deps.subscriptions, tx, next, number, now);
      next.nextCycle = number + 1;
    }
    return { next, event: SUBSCRIPTION_EVENTS.resumed };
  });
}

async function cancelOpenCycles(store: SubscriptionStore, tx: Queryable, subscription: SubscriptionRecord, now: Date): Promise<void> {
  for (const cycle of await store.openCycles(tx, subscription.clientId, subscription.id)) {
    await store.updateCycle(tx, { ...cycle, status: 'canceled', nextAttemptAt: null, updatedAt: now });
  }
}

async function changeStatus(
  deps: SubscriptionDeps,
  input: { clientId: string; id: string },
  change: (tx: Queryable, subscription: SubscriptionRecord, now: Date) => Promise<{ next: SubscriptionRecord; event: (typeof SUBSCRIPTION_EVENTS)[keyof typeof SUBSCRIPTION_EVENTS] }>,
): Promise<SubscriptionView> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  const changed = await withTransaction(deps.pool, async (tx) => {
    const subscription = await load(deps.subscriptions, tx, clientId, input.id, true);
    const { next, event } = await change(tx, subscription, now);
    await deps.subscriptions.update(tx, next);
    await recordSubscriptionEvent(tx, event, next, now);
    return view(deps.subscriptions, tx, next);
  });
  deps.outbox?.kick();
  return changed;
}

export async function listCycles(
  deps: SubscriptionDeps,
  input: { clientId: string; subscriptionId: string; page?: PageInput },
): Promise<{ items: CycleRecord[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const subscription = await load(deps.subscriptions, deps.pool, clientId, input.subscriptionId);
  const page = toPage(input.page);
  const { items, total } = await deps.subscriptions.cyclesOf(deps.pool, clientId, subscription.id, page);
  return { items, meta: pageMeta(page, items.length, total) };
}

export async function getCycle(deps: SubscriptionDeps, input: { clientId: string; subscriptionId: string; id: string }): Promise<CycleRecord> {
  const clientId = requireClientId(input.clientId);
  const subscription = await load(deps.subscriptions, deps.pool, clientId, input.subscriptionId);
  const cycle = isUuid(input.id) ? await deps.subscriptions.findCycle(deps.pool, clientId, input.id.toLowerCase()) : null;
  if (!cycle || cycle.subscriptionId !== subscription.id) throw errors.notFound('Cycle', input.id);
  return cycle;
}
