import { z } from '../zod';

/** A split rule of a charge (or of one of its refunds) as a `payments.charge.*` event carries it. */
const ChargeEventSplitRuleSchema = z.object({
  sellerId: z.string(),
  percentage: z.number().nullable().optional(),
  amount: z.number().int().nullable().optional(),
});

/**
 * The `data` of a `payments.charge.*` event: the public charge (`ChargeJson`), of which this schema declares the
 * fields other services read (sessions and payouts); the other fields pass through unchecked and are dropped. Amounts
 * are integers in minor units.
 */
export const ChargeEventDataSchema = z.object({
  id: z.string().min(1),
  sessionId: z.string().nullable().default(null),
  status: z.string().min(1),
  amount: z.number().int(),
  capturedAmount: z.number().int(),
  refundedAmount: z.number().int(),
  providerType: z.string().nullable(),
  paymentMethod: z.object({ paymentType: z.string(), installments: z.number().int().nullable().optional() }).nullable(),
  splitRules: z.array(ChargeEventSplitRuleSchema).nullable().optional(),
  transactionRequests: z
    .array(
      z.object({
        id: z.string(),
        requestType: z.string(),
        requestStatus: z.string(),
        amount: z.number().int(),
        splitRules: z.array(ChargeEventSplitRuleSchema.pick({ sellerId: true }).extend({ amount: z.number().int().nullable() })).nullable().optional(),
        updatedAt: z.string().nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
});

export type ChargeEventData = z.infer<typeof ChargeEventDataSchema>;
