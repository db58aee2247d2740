import type { payments } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { createFlow } from '../../flows/app/createFlow';
import { getFlow } from '../../flows/app/getFlow';
import { listFlows } from '../../flows/app/listFlows';
import { replaceFlow } from '../../flows/app/replaceFlow';
import type { MerchantContext } from '../app/context';
import { createMerchant } from '../app/createMerchant';
import { deleteMerchant } from '../app/deleteMerchant';
import { getMerchant } from '../app/getMerchant';
import { getPlatformFee } from '../app/getPlatformFee';
import { listMerchants } from '../app/listMerchants';
import { replacePlatformFee } from '../app/replacePlatformFee';
import { setPlatformFeeEnabled } from '../app/setPlatformFeeEnabled';
import { updateMerchant } from '../app/updateMerchant';
import { updateProvider } from '../app/updateProvider';
import type { FlowInput } from '../../flows/domain/flow';
import { flowRuleInput } from '../../flows/wire/flowMessages';
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
    rules: request.rules.map(flowRuleInput),
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
