import type { payments } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { captureCharge } from '../app/captureCharge';
import { createCharge } from '../app/createCharge';
import type { ChargeDeps } from '../app/deps';
import { getCharge } from '../app/getCharge';
import { listCharges } from '../app/listCharges';
import { getSandboxDocument } from '../app/sandboxDocument';
import { setAntifraudStatus } from '../app/setAntifraudStatus';
import { setSandboxChargeStatus } from '../app/setSandboxChargeStatus';
import { setupThreeDS } from '../app/setupThreeDS';
import { receiveProviderNotification } from '../app/providerNotifications';
import { voidCharge } from '../app/voidCharge';
import { toChargeMessage } from '../wire/chargeMessages';

type ChargeRpc =
  | 'createCharge'
  | 'listCharges'
  | 'getCharge'
  | 'captureCharge'
  | 'voidCharge'
  | 'setSandboxChargeStatus'
  | 'setAntifraudStatus'
  | 'setupThreeDs'
  | 'getSandboxPaymentDocument'
  | 'receiveProviderNotification';

export function createChargeHandlers(ctx: ChargeDeps): Pick<Handlers<typeof payments.PaymentsServiceService>, ChargeRpc> {
  return {
    createCharge: async (request, call) => toChargeMessage(await createCharge(ctx, request, call.idempotencyKey)),
    listCharges: async (request) => {
      const { items, meta } = await listCharges(ctx, request);
      return { items: items.map(toChargeMessage), meta };
    },
    getCharge: async (request) => toChargeMessage(await getCharge(ctx, request)),
    captureCharge: async (request, call) => toChargeMessage(await captureCharge(ctx, request, call.idempotencyKey)),
    voidCharge: async (request, call) => toChargeMessage(await voidCharge(ctx, request, call.idempotencyKey)),
    setSandboxChargeStatus: async (request, call) => toChargeMessage(await setSandboxChargeStatus(ctx, request, call.idempotencyKey)),
    setAntifraudStatus: async (request, call) => toChargeMessage(await setAntifraudStatus(ctx, request, call.idempotencyKey)),
    setupThreeDs: async (request, call) => setupThreeDS(ctx, request, call.idempotencyKey),
    getSandboxPaymentDocument: async (request) => getSandboxDocument(ctx, request),
    receiveProviderNotification: async (request) => {
      const reply = await receiveProviderNotification(ctx, request);
      return { status: reply.status, bodyJson: reply.body === null || reply.body === undefined ? '' : JSON.stringify(reply.body) };
    },
  };
}
