import type { payouts } from '@platform/contracts';
import { toPageRequest, type PaginationQuery } from '../../http/pagination';
import type { CreatePlanInput, ListPaymentBatchesInput, ListPayoutOrdersInput, PlanFeeInputValue, SimulatePrepaymentInput, UpdatePlanInput } from './schemas';

export {
  toBalanceJson,
  toPaymentBatchJson,
  toPayoutOrderJson,
  toPlanJson,
  toPrepaymentJson,
  toPrepaymentReceivablesJson,
} from '@platform/api-model';

export function toListPaymentBatchesRequest(clientId: string, query: ListPaymentBatchesInput): payouts.ListPaymentBatchesRequest {
  return {
    clientId,
    page: toPageRequest(query),
    sellerId: query.sellerId,
    status: query.status ?? [],
    startDate: query.startDate,
    endDate: query.endDate,
  };
}

export function toListOrdersRequest(clientId: string, query: ListPayoutOrdersInput): payouts.ListOrdersRequest {
  return {
    clientId,
    page: toPageRequest(query),
    sellerId: query.sellerId,
    startDate: query.startDate,
    endDate: query.endDate,
    chargeId: query.chargeId,
  };
}

/** The orders of one batch. */
export function toBatchOrdersRequest(clientId: string, paymentBatchId: string, query: PaginationQuery): payouts.ListOrdersRequest {
  return { clientId, page: toPageRequest(query), paymentBatchId };
}

function toPlanFee(fee: PlanFeeInputValue): payouts.PlanFee {
  return {
    paymentType: fee.paymentType,
    installmentsFrom: fee.installmentsFrom,
    installmentsTo: fee.installmentsTo,
    percentage: fee.percentage,
    fixedAmount: fee.fixedAmount,
  };
}

export function toCreatePlanRequest(clientId: string, input: CreatePlanInput): payouts.CreatePlanRequest {
  return {
    clientId,
    name: input.name,
    isDefault: input.isDefault,
    fees: (input.fees ?? []).map(toPlanFee),
    settlementDays: input.settlementDays,
    prepaymentMonthlyRate: input.prepaymentMonthlyRate,
  };
}

/** Fields left out stay as they are; `fees`, when given, replaces the whole fee table. */
export function toUpdatePlanRequest(clientId: string, id: string, input: UpdatePlanInput): payouts.UpdatePlanRequest {
  return {
    clientId,
    id,
    name: input.name,
    isDefault: input.isDefault,
    replaceFees: input.fees !== undefined,
    fees: (input.fees ?? []).map(toPlanFee),
    settlementDays: input.settlementDays,
    prepaymentMonthlyRate: input.prepaymentMonthlyRate,
  };
}

export function toSimulatePrepaymentRequest(clientId: string, input: SimulatePrepaymentInput): payouts.SimulatePrepaymentRequest {
  return { clientId, sellerId: input.sellerId, endDate: input.endDate, dates: input.dates ?? [] };
}
