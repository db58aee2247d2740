import { CHARGE_STATUSES, PAYMENT_TYPES, ReportSchema } from '@platform/api-model';
import { dateTime, queryInt32 } from '../../http/fields';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

/** The columns a transactions report may have (the payments service checks them again). */
export const REPORT_FIELDS = [
  'id',
  'createdAt',
  'updatedAt',
  'status',
  'amount',
  'originalAmount',
  'currency',
  'paymentType',
  'installments',
  'merchantId',
  'orderId',
  'customerId',
  'sessionId',
  'description',
  'statementDescriptor',
  'providerType',
  'authorizationCode',
  'capturedAmount',
  'refundedAmount',
  'declinedCode',
  'cardBrand',
  'cardLastDigits',
] as const;

const instant = dateTime();

export const CreateReportBody = z
  .object({
    type: z.enum(['transactions'], { error: requiredOr('must be transactions') }),
    fields: z
      .array(z.enum(REPORT_FIELDS, { error: `must be one of ${REPORT_FIELDS.join(', ')}` }), { error: requiredOr('must be an array') })
      .max(REPORT_FIELDS.length, `must list at most ${REPORT_FIELDS.length} columns`)
      .optional()
      .openapi({ description: 'The columns, in order; absent: id, createdAt, status, amount, currency, paymentType, installments, merchantId, orderId, customerId, providerType, authorizationCode, capturedAmount, refundedAmount' }),
    filters: z
      .object({
        transactionStatus: z.array(z.enum(CHARGE_STATUSES, { error: `must be one of ${CHARGE_STATUSES.join(', ')}` })).max(CHARGE_STATUSES.length).optional(),
        paymentMethod: z.array(z.enum(PAYMENT_TYPES, { error: `must be one of ${PAYMENT_TYPES.join(', ')}` })).max(PAYMENT_TYPES.length).optional(),
        createdAt: z.object({ gte: instant.optional(), lte: instant.optional() }).optional(),
        merchantId: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
      })
      .optional(),
  })
  .openapi('CreateReportRequest');

export const ReportParams = z.object({ id: z.string().min(1).max(200) });
export const ReportFileParams = z.object({
  id: z.string().min(1).max(200),
  page: queryInt32('must be a whole page number').min(1, 'must be at least 1'),
});

/** The answers here are the API model's schemas. */
export { ReportSchema };
