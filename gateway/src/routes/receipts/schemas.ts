import { RECEIPT_TYPES, ReceiptSchema } from '@platform/api-model';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

export const CreateReceiptBody = z
  .object({
    chargeId: z
      .string({ error: requiredOr('must be a string') })
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .openapi({ description: "A voided or refunded charge of the platform's own provider (SANDBOX, SUBACQUIRER)" }),
    type: z.enum(RECEIPT_TYPES, { error: requiredOr(`must be one of ${RECEIPT_TYPES.join(', ')}`) }).openapi({
      description: '`refund_receipt` needs a refund; `cancellation_letter` needs the charge voided or fully refunded',
    }),
  })
  .openapi('CreateReceiptRequest');

export const ReceiptParams = z.object({ id: z.string().min(1).max(200) });

/** The answers here are the API model's schemas. */
export { ReceiptSchema };

export type CreateReceiptInput = z.infer<typeof CreateReceiptBody>;
