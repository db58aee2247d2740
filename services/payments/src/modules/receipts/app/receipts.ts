import { randomUUID } from 'node:crypto';
import { isReceiptType, RECEIPT_CONTENT_TYPE, RECEIPT_TYPES, type ReceiptType } from '@platform/api-model';
import { errors, isUuid, requireClientId } from '@platform/kit';
import type { Charge } from '../../charges/domain/charge';
import type { Merchant } from '../../merchants/domain/merchant';
import type { ReceiptDeps } from './deps';
import { renderReceiptPdf } from './pdf';
import { receiptDocument, receiptRefusal } from './rules';
import type { ReceiptRecord } from '../store/receiptStore';

export const RECEIPT_NOT_AVAILABLE = 'receipt_not_available';

function requireType(type: string): ReceiptType {
  if (!isReceiptType(type)) throw errors.validation(`Invalid type: must be one of ${RECEIPT_TYPES.join(', ')}`, [{ field: 'type', message: `must be one of ${RECEIPT_TYPES.join(', ')}` }]);
  return type;
}

/** The name the merchant trades under; a deleted merchant is gone for every call, so its charge's descriptor stands in. */
function merchantNameOf(merchant: Merchant | null, charge: Charge): string {
  return merchant?.merchantName || merchant?.name || charge.statementDescriptor || `Merchant ${charge.merchantId}`;
}

/**
 * The receipt of the caller's charge, made once: a second call for the same charge and type answers the first
 * receipt, the same id and the same PDF. The unique index decides between two calls at once.
 */
export async function createReceipt(deps: ReceiptDeps, input: { clientId: string; chargeId: string; type: string }): Promise<ReceiptRecord> {
  const clientId = requireClientId(input.clientId);
  const type = requireType(input.type);
  const charge = await deps.charges.findById(deps.pool, clientId, input.chargeId);
  if (!charge) throw errors.notFound('Charge', input.chargeId);
  const existing = await deps.receipts.findByCharge(deps.pool, clientId, charge.id, type);
  if (existing) return existing;
  const refusal = receiptRefusal(charge, type);
  if (refusal) throw errors.businessRule(RECEIPT_NOT_AVAILABLE, refusal);

  const [merchant, clientName] = await Promise.all([deps.merchants.findMerchant(deps.pool, clientId, charge.merchantId), deps.clients.clientName(clientId)]);
  const pdf = await renderReceiptPdf(receiptDocument(charge, type, { clientName, merchantName: merchantNameOf(merchant, charge) }));
  const receipt: ReceiptRecord = { id: randomUUID(), clientId, chargeId: charge.id, type, createdAt: deps.clock.now() };
  await deps.receipts.insertOnce(deps.pool, receipt, pdf);
  const kept = await deps.receipts.findByCharge(deps.pool, clientId, charge.id, type);
  if (!kept) throw new Error(`receipt of charge ${charge.id} vanished after its insert`);
  if (kept.id === receipt.id) deps.log.info({ receiptId: kept.id, chargeId: charge.id, type }, 'receipt created');
  return kept;
}

export async function getReceipt(deps: Pick<ReceiptDeps, 'pool' | 'receipts'>, input: { clientId: string; id: string }): Promise<ReceiptRecord> {
  const clientId = requireClientId(input.clientId);
  const found = isUuid(input.id) ? await deps.receipts.find(deps.pool, clientId, input.id.toLowerCase()) : null;
  if (!found) throw errors.notFound('Receipt', input.id);
  return found;
}

/** The PDF exactly as it was made. */
export async function readReceiptFile(deps: Pick<ReceiptDeps, 'pool' | 'receipts'>, input: { clientId: string; id: string }): Promise<{ data: Buffer; contentType: string }> {
  const clientId = requireClientId(input.clientId);
  const data = isUuid(input.id) ? await deps.receipts.pdfOf(deps.pool, clientId, input.id.toLowerCase()) : null;
  if (!data) throw errors.notFound('Receipt', input.id);
  return { data, contentType: RECEIPT_CONTENT_TYPE };
}
