import type { payments } from '@platform/contracts';
import { errors, type Handlers } from '@platform/kit';
import { advanceSubscription } from '../app/billing';
import type { SubscriptionDeps } from '../app/deps';
import {
  cancelSubscription,
  createSubscription,
  getCycle,
  getSubscription,
  listCycles,
  listSubscriptions,
  pauseSubscription,
  replaceSubscription,
  resumeSubscription,
  type SubscriptionView,
} from '../app/subscriptions';
import { toCycleMessage, toSubscriptionMessage, withNextBilling } from '../wire/subscriptionMessages';

type SubscriptionRpc =
  | 'createSubscription'
  | 'listSubscriptions'
  | 'getSubscription'
  | 'replaceSubscription'
  | 'cancelSubscription'
  | 'pauseSubscription'
  | 'resumeSubscription'
  | 'listSubscriptionCycles'
  | 'getSubscriptionCycle'
  | 'advanceSubscription';

const toMessage = (v: SubscriptionView): payments.Subscription => withNextBilling(toSubscriptionMessage(v.subscription), v.nextBillingAt);

export function createSubscriptionHandlers(deps: SubscriptionDeps): Pick<Handlers<typeof payments.PaymentsServiceService>, SubscriptionRpc> {
  return {
    createSubscription: async (r, ctx) =>
      toMessage(
        await createSubscription(deps, {
          clientId: r.clientId,
          merchantId: r.merchantId,
          customerId: r.customerId,
          name: r.name,
          items: r.items.map((i) => ({ name: i.name, amount: i.amount, quantity: i.quantity })),
          interval: r.recurrence?.interval ?? '',
          ...(r.recurrence?.cycles !== undefined ? { cycles: r.recurrence.cycles } : {}),
          ...(r.recurrence?.startAt ? { startAt: r.recurrence.startAt } : {}),
          ...(r.trialEndAt ? { trialEndAt: r.trialEndAt } : {}),
          paymentType: r.paymentMethod?.type ?? '',
          cardId: r.paymentMethod?.cardId ?? '',
          ...(r.paymentMethod?.installments ? { installments: r.paymentMethod.installments } : {}),
          ...(r.currency ? { currency: r.currency } : {}),
          splitRules: r.splitRules.map((s) => ({
            sellerId: s.sellerId,
            ...(s.percentage !== undefined ? { percentage: s.percentage } : {}),
            ...(s.amount !== undefined ? { amount: s.amount } : {}),
            processingFee: s.processingFee,
            chargeRemainderFee: s.chargeRemainderFee,
            liable: s.liable,
          })),
        }, ctx.idempotencyKey),
      ),
    listSubscriptions: async (r) => {
      const { items, meta } = await listSubscriptions(deps, { clientId: r.clientId, page: r.page, statuses: r.status, ...(r.customerId ? { customerId: r.customerId } : {}) });
      return { items: items.map(toMessage), meta };
    },
    getSubscription: async (r) => toMessage(await getSubscription(deps, r)),
    replaceSubscription: async (r) =>
      toMessage(
        await replaceSubscription(deps, {
          clientId: r.clientId,
          id: r.id,
          ...(r.name !== undefined ? { name: r.name } : {}),
          items: r.items.map((i) => ({ name: i.name, amount: i.amount, quantity: i.quantity })),
          cardId: r.paymentMethod?.cardId ?? '',
          ...(r.paymentMethod?.installments ? { installments: r.paymentMethod.installments } : {}),
        }),
      ),
    cancelSubscription: async (r) => toMessage(await cancelSubscription(deps, r)),
    pauseSubscription: async (r) => toMessage(await pauseSubscription(deps, r)),
    resumeSubscription: async (r) => toMessage(await resumeSubscription(deps, r)),
    listSubscriptionCycles: async (r) => {
      const { items, meta } = await listCycles(deps, { clientId: r.clientId, subscriptionId: r.subscriptionId, page: r.page });
      return { items: items.map(toCycleMessage), meta };
    },
    getSubscriptionCycle: async (r) => toCycleMessage(await getCycle(deps, { clientId: r.clientId, subscriptionId: r.subscriptionId, id: r.id })),
    advanceSubscription: async (r, ctx) => {
      if (!r.to) throw errors.validation('to is required', [{ field: 'to', message: 'is required (RFC 3339)' }]);
      return toMessage(await advanceSubscription(deps, { clientId: r.clientId, id: r.id, to: r.to, signal: ctx.signal }));
    },
  };
}
