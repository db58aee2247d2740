import type { payments } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { createFlow } from '../modules/flows/app/createFlow';
import { getFlow } from '../modules/flows/app/getFlow';
import { listFlows } from '../modules/flows/app/listFlows';
import { replaceFlow } from '../modules/flows/app/replaceFlow';
import type { MerchantContext } from '../app/merchants/context';
import { createMerchant } from '../app/merchants/createMerchant';
import { deleteMerchant } from '../app/merchants/deleteMerchant';
import { getMerchant } from '../app/merchants/getMerchant';
import { getPlatformFee } from '../app/merchants/getPlatformFee';
import { listMerchants } from '../app/merchants/listMerchants';
import { replacePlatformFee } from '../app/merchants/replacePlatformFee';
import { setPlatformFeeEnabled } from '../app/merchants/setPlatformFeeEnabled';
import { updateMerchant } from '../app/merchants/updateMerchant';
import { updateProvider } from '../app/merchants/updateProvider';
import type { FlowInput } from '../modules/flows/domain/flow';
import { toFlowMessage, toMerchantMessage, toPlatformFeeMessage, toProviderMessage } from '../wire/merchantMessages';

type MerchantRpc =
  | 'createMerchant'
  | 'listMerchants'
  | 'getMerchant'
  | 'updateMerchant'
  | 'deleteMerchant'
  | 'updateProvider'
  | 'getPlatformFee'
  | 'replacePlatformFee'
  | 'setPlatformFeeEnabled'
  | 'createFlow'
  | 'listFlows'
  | 'getFlow'
  | 'replaceFlow';

function flowInput(request: { name: string; paymentMethod: string; rules: payments.FlowRule[]; defaultRoute: string[] }): FlowInput {
  return {
    name: request.name,
    paymentMethod: request.paymentMethod,
    rules: request.rules.map((rule) => ({ when: rule.when ?? {}, route: rule.route })),
    defaultRoute: request.defaultRoute,
  };
}

export function createMerchantHandlers(ctx: MerchantContext): Pick<Handlers<typeof payments.PaymentsServiceService>, MerchantRpc> {
  return {
    createMerchant: async (request, call) => toMerchantMessage(await createMerchant(ctx, request, call.idempotencyKey)),
    listMerchants: async (request) => {
      const { items, meta } = await listMerchants(ctx, request);
      return { items: items.map(toMerchantMessage), meta };
    },
    getMerchant: async (request) => toMerchantMessage(await getMerchant(ctx, request)),
    updateMerchant: async (request) => toMerchantMessage(await updateMerchant(ctx, request)),
    deleteMerchant: async (request) => {
      await deleteMerchant(ctx, request);
      return {};
    },
    updateProvider: async (request) => toProviderMessage(await updateProvider(ctx, request)),
    getPlatformFee: async (request) => toPlatformFeeMessage(await getPlatformFee(ctx, request)),
    replacePlatformFee: async (request) => toPlatformFeeMessage(await replacePlatformFee(ctx, request)),
    setPlatformFeeEnabled: async (request) => toPlatformFeeMessage(await setPlatformFeeEnabled(ctx, request)),
    createFlow: async (request, call) =>
      toFlowMessage(await createFlow(ctx, { clientId: request.clientId, merchantId: request.merchantId, ...flowInput(request) }, call.idempotencyKey)),
    listFlows: async (request) => {
      const { items, meta } = await listFlows(ctx, request);
      return { items: items.map(toFlowMessage), meta };
    },
    getFlow: async (request) => toFlowMessage(await getFlow(ctx, request)),
    replaceFlow: async (request) => toFlowMessage(await replaceFlow(ctx, { clientId: request.clientId, id: request.id, ...flowInput(request) })),
  };
}
