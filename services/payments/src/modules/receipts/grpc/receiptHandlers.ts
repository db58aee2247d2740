import type { payments } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import type { ReceiptDeps } from '../app/deps';
import { createReceipt, getReceipt, readReceiptFile } from '../app/receipts';
import type { ReceiptRecord } from '../store/receiptStore';

type ReceiptRpc = 'createReceipt' | 'getReceipt' | 'readReceiptFile';

const toReceiptMessage = (r: ReceiptRecord): payments.Receipt => ({ id: r.id, clientId: r.clientId, chargeId: r.chargeId, type: r.type, createdAt: r.createdAt });

export function createReceiptHandlers(deps: ReceiptDeps): Pick<Handlers<typeof payments.PaymentsServiceService>, ReceiptRpc> {
  return {
    createReceipt: async (r) => toReceiptMessage(await createReceipt(deps, { clientId: r.clientId, chargeId: r.chargeId, type: r.type })),
    getReceipt: async (r) => toReceiptMessage(await getReceipt(deps, { clientId: r.clientId, id: r.id })),
    readReceiptFile: async (r) => readReceiptFile(deps, { clientId: r.clientId, id: r.id }),
  };
}
