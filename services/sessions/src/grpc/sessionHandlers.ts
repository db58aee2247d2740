import type { payments, sessions } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { getCheckoutSession } from '../app/checkout';
import type { SessionDeps } from '../app/deps';
import {
  authenticateSessionKey,
  cancelSession,
  chargeSession,
  createSession,
  findSessionByKey,
  getSession,
  listSessions,
  sessionHistory,
  updateSession,
  type SessionView,
} from '../app/sessions';
import type { PaymentType, SessionPaymentMethod, SessionSplitRule } from '../domain/session';
import { toSessionMessage } from './sessionMessage';

function toMessage(v: SessionView): sessions.Session {
  return toSessionMessage(v.session, v.publicKey);
}

function toPaymentMethod(m: payments.PaymentMethod): SessionPaymentMethod {
  return {
    paymentType: m.paymentType as PaymentType,
    ...(m.installments > 0 ? { installments: m.installments } : {}),
    ...(m.expiresIn > 0 ? { expiresIn: m.expiresIn } : {}),
    ...(m.expiresDate ? { expiresDate: m.expiresDate } : {}),
    ...(m.instructions ? { instructions: m.instructions } : {}),
  };
}

function toSplitRule(r: payments.SplitRule): SessionSplitRule {
  return {
    sellerId: r.sellerId,
    ...(r.percentage !== undefined ? { percentage: r.percentage } : {}),
    ...(r.amount !== undefined ? { amount: r.amount } : {}),
    processingFee: r.processingFee,
    chargeRemainderFee: r.chargeRemainderFee,
    liable: r.liable,
  };
}

export function createSessionHandlers(deps: SessionDeps): Handlers<typeof sessions.SessionsServiceService> {
  return {
    createSession: async (r, ctx) =>
      toMessage(
        await createSession(
          deps,
          {
          clientId: r.clientId,
          merchantId: r.merchantId,
          name: r.name,
          orderId: r.orderId,
          amount: r.amount,
          currency: r.currency,
          capture: r.capture,
          dueDate: r.dueDate,
          isActive: r.isActive,
          maxPayments: r.maxPayments,
          paymentMethods: r.paymentMethods.map(toPaymentMethod),
          items: r.items.map((i) => ({ name: i.name, unitPrice: i.unitPrice, quantity: i.quantity, description: i.description })),
          splitRules: r.splitRules.map(toSplitRule),
          statementDescriptor: r.statementDescriptor,
          },
          ctx.idempotencyKey,
        ),
      ),
    listSessions: async (r) => {
      const { items, meta } = await listSessions(deps, {
        clientId: r.clientId,
        page: r.page,
        filters: {
          id: r.id,
          status: r.status,
          isActive: r.isActive,
          merchantId: r.merchantId,
          orderId: r.orderId,
          multiplePaymentsStatus: r.multiplePaymentsStatus,
          createdGt: r.createdGt,
          createdLt: r.createdLt,
        },
      });
      return { items: items.map(toMessage), meta };
    },
    getSession: async (r) => toMessage(await getSession(deps, r)),
    updateSession: async (r) =>
      toMessage(await updateSession(deps, { clientId: r.clientId, id: r.id, update: { isActive: r.isActive, dueDate: r.dueDate, maxPayments: r.maxPayments } })),
    cancelSession: async (r) => toMessage(await cancelSession(deps, r)),
    chargeSession: async (r, ctx) =>
      chargeSession(
        deps,
        {
          clientId: r.clientId,
          id: r.id,
          customerId: r.customerId,
          paymentMethod: r.paymentMethod,
          paymentSource: r.paymentSource,
          fraudAnalysis: r.fraudAnalysis,
        },
        ctx.idempotencyKey,
      ),
    getSessionHistory: async (r) => {
      const records = await sessionHistory(deps, r);
      return {
        items: records.map((h) => ({
          id: h.id,
          status: h.status,
          createdAt: h.createdAt,
          updatedAt: h.createdAt,
          clientId: h.clientId,
          merchantId: h.merchantId,
          action: h.action ?? undefined,
          actions: h.actions,
          diff: h.diff,
        })),
      };
    },
    authenticateSessionKey: async (r) => ({ valid: await authenticateSessionKey(deps, r) }),
    findSessionByKey: async (r) => ({ sessionId: await findSessionByKey(deps, r) }),
    getCheckoutSession: async (r) => toMessage(await getCheckoutSession(deps, { id: r.id })),
  };
}
