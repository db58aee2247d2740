import type { sessions } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { authenticateSessionKey } from '../app/authenticateSessionKey';
import { cancelSession } from '../app/cancelSession';
import { chargeSession } from '../app/chargeSession';
import { createSession } from '../app/createSession';
import type { SessionDeps } from '../app/deps';
import { findSessionByKey } from '../app/findSessionByKey';
import { getCheckoutSession } from '../app/getCheckoutSession';
import { getSession } from '../app/getSession';
import { listSessions } from '../app/listSessions';
import { sessionHistory } from '../app/sessionHistory';
import type { SessionView } from '../app/sessionView';
import { updateSession } from '../app/updateSession';
import { fromPaymentMethodMessage, fromSplitRuleMessage, toSessionMessage } from '../wire/sessionMessages';

function toMessage(v: SessionView): sessions.Session {
  return toSessionMessage(v.session, v.publicKey);
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
          paymentMethods: r.paymentMethods.map(fromPaymentMethodMessage),
          items: r.items.map((i) => ({ name: i.name, unitPrice: i.unitPrice, quantity: i.quantity, description: i.description })),
          splitRules: r.splitRules.map(fromSplitRuleMessage),
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
        ctx.signal,
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
