import { errors } from '@platform/kit';
import type { ChargeDeps } from './deps';

/** The SANDBOX provider's transaction ids: `sbx_` and a random UUID's 32 hex digits (src/modules/connectors/sandbox/sandbox.ts). */
export const SANDBOX_TRANSACTION_ID = /^sbx_[0-9a-f]{32}$/;

const DOCUMENT_TYPES = ['pix', 'boleto'] as const;

/**
 * What the image of a SANDBOX Pix QR code or boleto barcode draws: the Pix payload or the 44-digit barcode of the
 * charge whose authorization has this transaction id. Asked without a client: the id in the image's URL is the key
 * (random, known only from the client's charge). Anything else (a malformed or unknown id, the other payment type,
 * a charge without the document) is not found, the same answer for each.
 */
export async function getSandboxDocument(
  deps: Pick<ChargeDeps, 'pool' | 'store'>,
  request: { transactionId: string; paymentType: string },
): Promise<{ paymentType: 'pix' | 'boleto'; data: string }> {
  const paymentType = DOCUMENT_TYPES.find((t) => t === request.paymentType);
  const transactionId = request.transactionId ?? '';
  const data = paymentType && SANDBOX_TRANSACTION_ID.test(transactionId) ? await deps.store.sandboxDocument(deps.pool, transactionId, paymentType) : null;
  if (!paymentType || !data) throw errors.notFound('Payment document');
  return { paymentType, data };
}
