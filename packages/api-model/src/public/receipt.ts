import type { payments } from '@platform/contracts';
import { z } from '../zod';
import { requiredTimestamp } from './json';

/** The documents a voided or refunded charge can have: a refund receipt, a cancellation letter. */
export const RECEIPT_TYPES = ['refund_receipt', 'cancellation_letter'] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];

export function isReceiptType(value: string): value is ReceiptType {
  return (RECEIPT_TYPES as readonly string[]).includes(value);
}

/** A receipt is a PDF kept as it was made; its media type never changes. */
export const RECEIPT_CONTENT_TYPE = 'application/pdf';

/** Where the gateway serves a receipt's PDF; the caller's credentials are needed to fetch it. */
export function receiptFileUrl(publicUrl: string, receiptId: string): string {
  return `${publicUrl}/v1/receipts/${encodeURIComponent(receiptId)}/file`;
}

/** A receipt: the answer of POST and GET /v1/receipts. */
export const ReceiptSchema = z
  .object({
    id: z.string(),
    chargeId: z.string(),
    type: z.string().openapi({ example: 'refund_receipt', description: RECEIPT_TYPES.join(', ') }),
    createdAt: z.iso.datetime(),
    fileUrl: z.string().openapi({ description: 'Where the PDF is downloaded, with the same credentials' }),
  })
  .openapi('Receipt');

export type ReceiptJson = z.infer<typeof ReceiptSchema>;

/** `publicUrl` is the gateway's public origin, which serves the file. */
export function toReceiptJson(value: payments.Receipt, publicUrl: string): ReceiptJson {
  return {
    id: value.id,
    chargeId: value.chargeId,
    type: value.type,
    createdAt: requiredTimestamp(value.createdAt, 'createdAt'),
    fileUrl: receiptFileUrl(publicUrl, value.id),
  };
}
