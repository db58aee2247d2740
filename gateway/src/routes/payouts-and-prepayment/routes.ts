import { PREPAYMENT_DENIED_CODE } from '@platform/api-model';
import type { GatewayClients } from '../../clients';
import { toList, toPageRequest } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import {
  toBalanceJson,
  toBatchOrdersRequest,
  toCreatePlanRequest,
  toListOrdersRequest,
  toListPaymentBatchesRequest,
  toPaymentBatchJson,
  toPayoutOrderJson,
  toPlanJson,
  toPrepaymentJson,
  toPrepaymentReceivablesJson,
  toSimulatePrepaymentRequest,
  toUpdatePlanRequest,
} from './mapping';
import {
  AdvanceSettlementBody,
  AdvanceSettlementSchema,
  BalanceQuery,
  BalanceSchema,
  CreatePlanBody,
  IdParams,
  ListPaymentBatchesQuery,
  ListPayoutOrdersQuery,
  PageQuery,
  PaymentBatchListSchema,
  PaymentBatchSchema,
  PayoutOrderListSchema,
  PayoutOrderSchema,
  PlanListSchema,
  PlanSchema,
  PrepaymentReceivablesSchema,
  PrepaymentSchema,
  ReceivablesQuery,
  SimulatePrepaymentBody,
  UpdatePlanBody,
} from './schemas';

const payoutTags = [TAGS.payouts] as const;
const planTags = [TAGS.plans] as const;
const prepaymentTags = [TAGS.prepayment] as const;

/** Every prepayment route says how a client without prepayment is answered. */
const PREPAYMENT_DENIED =
  `A client not enabled for prepayment gets 403 with businessCode \`${PREPAYMENT_DENIED_CODE}\`, and at the top level of the body ` +
  `\`code: "${PREPAYMENT_DENIED_CODE}"\` and \`networkDeniedMessage\` (a sentence).`;

export function payoutsAndPrepaymentRoutes({ payoutsAndPrepayment: payouts }: Pick<GatewayClients, 'payoutsAndPrepayment'>): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/payouts/balance',
      operationId: 'getBalance',
      summary: "A receiver's balance: settled and not yet transferred, and future receivables",
      description:
        'What a committed prepayment takes is in neither: from its commit the receivables leave receivable (the prepayment fee goes to the ' +
        'platform) and their net is a pending payment batch on its paymentDate (GET /v1/payouts/payment-batches?status=pending), paid on that date.',
      tags: payoutTags,
      resource: 'payouts',
      query: BalanceQuery,
      response: { status: 200, description: 'The balance', schema: BalanceSchema },
      handler: async ({ client, query, call }) => toBalanceJson(await payouts.getBalance({ clientId: client.clientId, sellerId: query.sellerId }, call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/payouts/payment-batches',
      operationId: 'listPaymentBatches',
      summary: 'List payment batches (transfers), newest first',
      description: "One receiver's batches: the seller's with sellerId, the client's main account's without it (as the balance).",
      tags: payoutTags,
      resource: 'payouts',
      query: ListPaymentBatchesQuery,
      response: { status: 200, description: 'A page of batches', schema: PaymentBatchListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payouts.listPaymentBatches(toListPaymentBatchesRequest(client.clientId, query), call);
        return toList(page.items.map(toPaymentBatchJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/payouts/payment-batches/{id}',
      operationId: 'getPaymentBatch',
      summary: 'Get a payment batch',
      tags: payoutTags,
      resource: 'payouts',
      params: IdParams,
      response: { status: 200, description: 'The batch', schema: PaymentBatchSchema },
      handler: async ({ client, params, call }) => toPaymentBatchJson(await payouts.getPaymentBatch({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/payouts/payment-batches/{id}/orders',
      operationId: 'listPaymentBatchOrders',
      summary: 'List the payment orders of a batch',
      tags: payoutTags,
      resource: 'payouts',
      params: IdParams,
      query: PageQuery,
      response: { status: 200, description: 'A page of orders', schema: PayoutOrderListSchema },
      handler: async ({ client, params, query, call }) => {
        const page = await payouts.listOrders(toBatchOrdersRequest(client.clientId, params.id, query), call);
        return toList(page.items.map(toPayoutOrderJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/payouts/orders',
      operationId: 'listPaymentOrders',
      summary: 'List payment orders, newest first',
      description: "One receiver's orders: the seller's with sellerId, the client's main account's without it (as the balance); chargeId narrows them to one charge.",
      tags: payoutTags,
      resource: 'payouts',
      query: ListPayoutOrdersQuery,
      response: { status: 200, description: 'A page of orders', schema: PayoutOrderListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payouts.listOrders(toListOrdersRequest(client.clientId, query), call);
        return toList(page.items.map(toPayoutOrderJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/payouts/orders/{id}',
      operationId: 'getPaymentOrder',
      summary: 'Get a payment order',
      tags: payoutTags,
      resource: 'payouts',
      params: IdParams,
      response: { status: 200, description: 'The order', schema: PayoutOrderSchema },
      handler: async ({ client, params, call }) => toPayoutOrderJson(await payouts.getOrder({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/payouts/sandbox/advance',
      operationId: 'advanceSandboxSettlement',
      summary: 'Sandbox: run the settlement as if today were the given date',
      description: 'Every receivable due by the date is gathered into batches and paid, so a test sees batches without waiting for their dates.',
      tags: payoutTags,
      resource: 'payouts',
      sandboxOnly: true,
      body: AdvanceSettlementBody,
      response: { status: 200, description: 'The batches the run created or paid', schema: AdvanceSettlementSchema },
      handler: async ({ client, body, call }) => {
        const answer = await payouts.advanceSettlement({ clientId: client.clientId, date: body.date }, call);
        return { batches: answer.batches.map(toPaymentBatchJson) };
      },
    }),

    defineRoute({
      method: 'get',
      path: '/v1/subacquirer/plans',
      operationId: 'listPlans',
      summary: 'List plans, newest first',
      tags: planTags,
      resource: 'plans',
      query: PageQuery,
      response: { status: 200, description: 'A page of plans', schema: PlanListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payouts.listPlans({ clientId: client.clientId, page: toPageRequest(query) }, call);
        return toList(page.items.map(toPlanJson), page.meta);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/subacquirer/plans',
      operationId: 'createPlan',
      summary: 'Create a plan',
      description: 'Exactly one plan of a client is the default one: isDefault true moves the default to the new plan. Sellers link to a plan by planId.',
      tags: planTags,
      resource: 'plans',
      body: CreatePlanBody,
      response: { status: 201, description: 'The plan', schema: PlanSchema },
      errors: [409, 422],
      handler: async ({ client, body, call }) => toPlanJson(await payouts.createPlan(toCreatePlanRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/subacquirer/plans/{id}',
      operationId: 'getPlan',
      summary: 'Get a plan',
      tags: planTags,
      resource: 'plans',
      params: IdParams,
      response: { status: 200, description: 'The plan', schema: PlanSchema },
      handler: async ({ client, params, call }) => toPlanJson(await payouts.getPlan({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/subacquirer/plans/{id}',
      operationId: 'updatePlan',
      summary: 'Change a plan (partial; fees, when given, replace the whole fee table)',
      tags: planTags,
      resource: 'plans',
      params: IdParams,
      body: UpdatePlanBody,
      response: { status: 200, description: 'The changed plan', schema: PlanSchema },
      errors: [422],
      handler: async ({ client, params, body, call }) => toPlanJson(await payouts.updatePlan(toUpdatePlanRequest(client.clientId, params.id, body), call)),
    }),

    // Before /v1/subacquirer/prepayment/{id}, so `receivables` is never read as a prepayment id.
    defineRoute({
      method: 'get',
      path: '/v1/subacquirer/prepayment/receivables',
      operationId: 'listPrepayableReceivables',
      summary: 'The receivables a receiver may prepay, with their total',
      description: `Future, unsettled, not yet prepaid receivables of the own provider. ${PREPAYMENT_DENIED}`,
      tags: prepaymentTags,
      resource: 'prepayment',
      query: ReceivablesQuery,
      response: { status: 200, description: 'The summary and the receivables', schema: PrepaymentReceivablesSchema },
      handler: async ({ client, query, call }) =>
        toPrepaymentReceivablesJson(await payouts.listPrepaymentReceivables({ clientId: client.clientId, sellerId: query.sellerId }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/subacquirer/prepayment',
      operationId: 'simulatePrepayment',
      summary: 'Simulate a prepayment: every receivable up to endDate, or those of the given dates',
      description:
        'The fee of each receivable is amount × monthlyRate × days / 30, rounded down. The payment date is the next business day before 15:00 Brasília ' +
        `time, else the one after; the simulation expires at that cutoff or 30 minutes after it was made, whichever comes first. A blocked seller: 422 seller_blocked. ${PREPAYMENT_DENIED}`,
      tags: prepaymentTags,
      resource: 'prepayment',
      body: SimulatePrepaymentBody,
      response: { status: 201, description: 'The simulation (pending)', schema: PrepaymentSchema },
      errors: [409, 422],
      handler: async ({ client, body, call }) => toPrepaymentJson(await payouts.simulatePrepayment(toSimulatePrepaymentRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/subacquirer/prepayment/{id}',
      operationId: 'getPrepayment',
      summary: 'Get a prepayment',
      description: PREPAYMENT_DENIED,
      tags: prepaymentTags,
      resource: 'prepayment',
      params: IdParams,
      response: { status: 200, description: 'The prepayment', schema: PrepaymentSchema },
      handler: async ({ client, params, call }) => toPrepaymentJson(await payouts.getPrepayment({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/subacquirer/prepayment/{id}/commit',
      operationId: 'commitPrepayment',
      summary: 'Commit a simulation: its receivables are prepaid on its payment date',
      description:
        'At once its receivables leave the future balance (receivable drops by grossAmount) and a pending payment batch of netAmount on paymentDate ' +
        'is listed (event payment_batch.created); the settlement of paymentDate pays that batch. ' +
        'After expiresAt: 422 prepayment_simulation_expired. Receivables another commit took first: 422 receivables_unavailable. ' + PREPAYMENT_DENIED,
      tags: prepaymentTags,
      resource: 'prepayment',
      params: IdParams,
      response: { status: 200, description: 'The committed prepayment', schema: PrepaymentSchema },
      errors: [422],
      handler: async ({ client, params, call }) => toPrepaymentJson(await payouts.commitPrepayment({ clientId: client.clientId, id: params.id }, call)),
    }),
  ];
}
