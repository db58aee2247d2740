import { payments, type sessions } from '@platform/contracts';
import { toPageRequest } from '../../http/pagination';
import { toPaymentMethod, toPaymentSource, toSplitRules } from '../charges/mapping';
import type { CreateSessionInput, ListSessionsInput } from './schemas';
import type { z } from '../../openapi/zod';
import type { ChargeSessionBody } from './schemas';

export { toSessionHistoryItemJson, toSessionJson } from '@platform/api-model';

/** Every field of the message is set, so the proto3 zero values say "not given" and nothing else. */
export function toCreateSessionRequest(clientId: string, input: CreateSessionInput): sessions.CreateSessionRequest {
  return {
    clientId,
    merchantId: input.merchantId,
    name: input.name ?? '',
    orderId: input.orderId ?? '',
    amount: input.amount,
    currency: input.currency,
    capture: input.capture,
    dueDate: input.dueDate,
    isActive: input.isActive,
    maxPayments: input.maxPayments,
    paymentMethods: input.paymentMethods.map((m) =>
      payments.PaymentMethod.fromPartial({
        paymentType: m.paymentType,
        installments: m.installments,
        expiresIn: m.expiresIn,
        expiresDate: m.expiresDate,
        instructions: m.instructions,
      }),
    ),
    items: input.items.map((i) => ({ name: i.name, unitPrice: i.unitPrice, quantity: i.quantity, description: i.description ?? '' })),
    splitRules: toSplitRules(input.splitRules),
    statementDescriptor: input.statementDescriptor ?? '',
  };
}

export function toListSessionsRequest(clientId: string, query: ListSessionsInput): sessions.ListSessionsRequest {
  return {
    clientId,
    page: toPageRequest(query),
    id: query.id,
    status: query.status,
    isActive: query.isActive,
    merchantId: query.merchantId,
    orderId: query.orderId,
    multiplePaymentsStatus: query['multiplePayments.status'],
    createdGt: query['created.gt'],
    createdLt: query['created.lt'],
  };
}

export function toChargeSessionRequest(clientId: string, id: string, input: z.infer<typeof ChargeSessionBody>): sessions.ChargeSessionRequest {
  return {
    clientId,
    id,
    customerId: input.customerId ?? '',
    paymentMethod: toPaymentMethod(input.paymentMethod),
    paymentSource: toPaymentSource(input.paymentSource),
    fraudAnalysis: input.fraudAnalysis,
  };
}
