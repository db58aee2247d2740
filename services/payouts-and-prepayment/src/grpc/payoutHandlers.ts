import type { payouts } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import type { PayoutsDeps } from '../app/deps';
import { advance } from '../app/advance';
import { balance } from '../app/balance';
import { commit } from '../app/commitPrepayment';
import { createPlan } from '../app/createPlan';
import { getBatch } from '../app/getBatch';
import { getOrder } from '../app/getOrder';
import { getPlan } from '../app/getPlan';
import { getPrepayment } from '../app/getPrepayment';
import { listBatches } from '../app/listBatches';
import { listOrders } from '../app/listOrders';
import { listPlans } from '../app/listPlans';
import { listPrepaymentReceivables } from '../app/listPrepaymentReceivables';
import { simulate } from '../app/simulatePrepayment';
import { updatePlan } from '../app/updatePlan';
import { toBatchMessage, toOrderMessage } from '../wire/batchMessages';
import { settlementDaysOf, toPlanMessage } from '../wire/planMessages';
import { toPrepaymentMessage } from '../wire/prepaymentMessages';

const present = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

export function createPayoutHandlers(deps: PayoutsDeps): Handlers<typeof payouts.PayoutsServiceService> {
  return {
    createPlan: async (r, ctx) =>
      toPlanMessage(
        await createPlan(
          deps,
          {
            clientId: r.clientId,
            name: r.name,
            ...(r.isDefault !== undefined ? { isDefault: r.isDefault } : {}),
            fees: r.fees,
            settlementDays: settlementDaysOf(r.settlementDays),
            ...(r.prepaymentMonthlyRate !== undefined ? { prepaymentMonthlyRate: r.prepaymentMonthlyRate } : {}),
          },
          ctx.idempotencyKey,
        ),
      ),
    listPlans: async (r) => {
      const { items, meta } = await listPlans(deps, { clientId: r.clientId, page: r.page });
      return { items: items.map(toPlanMessage), meta };
    },
    getPlan: async (r) => toPlanMessage(await getPlan(deps, r)),
    updatePlan: async (r) =>
      toPlanMessage(
        await updatePlan(deps, {
          clientId: r.clientId,
          id: r.id,
          ...(r.name !== undefined ? { name: r.name } : {}),
          ...(r.isDefault !== undefined ? { isDefault: r.isDefault } : {}),
          replaceFees: r.replaceFees,
          fees: r.fees,
          settlementDays: settlementDaysOf(r.settlementDays),
          ...(r.prepaymentMonthlyRate !== undefined ? { prepaymentMonthlyRate: r.prepaymentMonthlyRate } : {}),
        }),
      ),

    getBalance: async (r) => balance(deps, { clientId: r.clientId, ...(present(r.sellerId) ? { sellerId: r.sellerId } : {}) }),
    listPaymentBatches: async (r) => {
      const { items, meta } = await listBatches(deps, {
        clientId: r.clientId,
        page: r.page,
        sellerId: present(r.sellerId),
        statuses: r.status,
        startDate: present(r.startDate),
        endDate: present(r.endDate),
      });
      return { items: items.map(toBatchMessage), meta };
    },
    getPaymentBatch: async (r) => toBatchMessage(await getBatch(deps, r)),
    listOrders: async (r) => {
      const { items, meta } = await listOrders(deps, {
        clientId: r.clientId,
        page: r.page,
        sellerId: present(r.sellerId),
        startDate: present(r.startDate),
        endDate: present(r.endDate),
        chargeId: present(r.chargeId),
        paymentBatchId: present(r.paymentBatchId),
      });
      return { items: items.map(toOrderMessage), meta };
    },
    getOrder: async (r) => toOrderMessage(await getOrder(deps, r)),
    advanceSettlement: async (r) => ({ batches: (await advance(deps, r)).map(toBatchMessage) }),

    listPrepaymentReceivables: async (r) => {
      const result = await listPrepaymentReceivables(deps, { clientId: r.clientId, sellerId: present(r.sellerId) });
      return {
        availableAmount: result.availableAmount,
        receivableCount: result.receivableCount,
        receivables: result.receivables.map((x) => ({ id: x.id, settlementDate: x.settlementDate, paymentArrangement: x.paymentArrangement, amount: x.amount })),
      };
    },
    simulatePrepayment: async (r, ctx) =>
      toPrepaymentMessage(await simulate(deps, { clientId: r.clientId, sellerId: present(r.sellerId), endDate: present(r.endDate), dates: r.dates }, ctx.idempotencyKey)),
    getPrepayment: async (r) => toPrepaymentMessage(await getPrepayment(deps, r)),
    commitPrepayment: async (r) => toPrepaymentMessage(await commit(deps, r)),
  };
}
