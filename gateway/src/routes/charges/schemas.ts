import { CHARGE_LIMITS, CHARGE_STATUSES, ChargeSchema, PAYMENT_TYPES, TransactionRequestSchema } from '@platform/api-model';
import { amount, commaJoined, currency, dueDate, int32, queryAmount, queryFlag } from '../../http/fields';
import { JsonObject } from '../../http/json';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';
import { CardInput } from '../tokens/schemas';

export const SOURCE_TYPES = ['card', 'token', 'customer', 'wallet'] as const;
export const RECURRENCES = ['initial', 'subsequent', 'unscheduled'] as const;
export { CHARGE_STATUSES };
export const SANDBOX_CHARGE_STATUSES = ['authorized', 'voided', 'charged_back', 'refund_pending', 'failed'] as const;
export const ANTIFRAUD_STATUSES = ['approved', 'reproved', 'failed'] as const;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const text = (max: number) => z.string({ error: requiredOr('must be a string') }).max(max, `must be at most ${max} characters`);
const id = text(200).min(1, 'must not be empty');
const flag = z.boolean({ error: requiredOr('must be true or false') });
const minorUnits = amount().min(1, 'must be at least 1');
const installments = z
  .int({ error: requiredOr('must be a whole number') })
  .min(1, 'must be at least 1')
  .max(CHARGE_LIMITS.maxInstallments, `must be at most ${CHARGE_LIMITS.maxInstallments}`);
const recurrence = z.enum(RECURRENCES, { error: requiredOr(oneOf(RECURRENCES)) }).openapi({ description: 'Provider recurrence of a card payment' });
// CVVs are validated by the vault; the messages here never quote what was sent.
const cardCvv = text(8).min(1, 'must not be empty');

/** The error of a discriminated union; zod reports a missing or unknown discriminator at that field, with the whole object as input. */
const variantError = (discriminator: string, names: readonly string[]) => ({
  error: (issue: { input?: unknown; code?: string }) => {
    if (issue.input === undefined) return 'is required';
    if (issue.code === 'invalid_type') return 'must be an object';
    return (issue.input as Record<string, unknown>)[discriminator] === undefined ? 'is required' : oneOf(names);
  },
});

const CreditMethod = z
  .object({
    paymentType: z.literal('credit'),
    installments: installments.optional().openapi({ description: '1 when absent' }),
    recurrence: recurrence.optional(),
  })
  .openapi('CreditPaymentMethod');

const DebitMethod = z.object({ paymentType: z.literal('debit'), recurrence: recurrence.optional() }).openapi('DebitPaymentMethod');

const PixMethod = z
  .object({
    paymentType: z.literal('pix'),
    expiresIn: int32('must be a whole number of seconds')
      .min(1, 'must be at least 1')
      .openapi({ description: 'Seconds until the QR code expires' }),
    installments: installments.optional().openapi({ description: 'Installment Pix' }),
  })
  .openapi('PixPaymentMethod');

const BoletoMethod = z
  .object({
    paymentType: z.literal('boleto'),
    expiresDate: dueDate().openapi({ description: 'Due date: not before today in Brasília', example: '2031-01-15' }),
    instructions: text(500).optional(),
    interest: JsonObject.optional(),
    fine: JsonObject.optional(),
  })
  .openapi('BoletoPaymentMethod');

const VoucherMethod = z.object({ paymentType: z.literal('voucher'), recurrence: recurrence.optional() }).openapi('VoucherPaymentMethod');

export const PaymentMethodInput = z
  .discriminatedUnion('paymentType', [CreditMethod, DebitMethod, PixMethod, BoletoMethod, VoucherMethod], variantError('paymentType', PAYMENT_TYPES))
  .openapi('PaymentMethodInput');

const CardSource = z
  .object({
    sourceType: z.literal('card'),
    cardId: id.optional().openapi({ description: 'A saved card; or send card' }),
    cardCvv: cardCvv.optional().openapi({ description: 'CVV of the saved card' }),
    card: CardInput.optional().openapi({ description: 'A card typed by the buyer; or send cardId' }),
  })
  .superRefine((source, ctx) => {
    if (source.cardId === undefined && source.card === undefined) ctx.addIssue({ code: 'custom', path: ['cardId'], message: 'is required (or card)' });
    if (source.cardId !== undefined && source.card !== undefined) ctx.addIssue({ code: 'custom', message: 'give cardId or card, not both' });
  })
  .openapi('CardPaymentSource');

const TokenSource = z.object({ sourceType: z.literal('token'), tokenId: id }).openapi('TokenPaymentSource');

const CustomerSource = z
  .object({
    sourceType: z.literal('customer'),
    customerId: id.optional().openapi({ description: 'A stored customer; or send customer' }),
    customer: JsonObject.optional().openapi({ description: 'The buyer, inline' }),
    cardId: id.optional().openapi({ description: 'A saved card of the customer' }),
    cardCvv: cardCvv.optional(),
  })
  .superRefine((source, ctx) => {
    if (source.customerId === undefined && source.customer === undefined) ctx.addIssue({ code: 'custom', path: ['customerId'], message: 'is required (or customer)' });
  })
  .openapi('CustomerPaymentSource');

const WalletSource = z.object({ sourceType: z.literal('wallet'), wallet: JsonObject.optional() }).openapi('WalletPaymentSource');

export const PaymentSourceInput = z
  .discriminatedUnion('sourceType', [CardSource, TokenSource, CustomerSource, WalletSource], variantError('sourceType', SOURCE_TYPES))
  .openapi('PaymentSourceInput');

export const SplitRuleInput = z
  .object({
    sellerId: id,
    percentage: int32('must be a whole number of basis points')
      .min(1, 'must be at least 1')
      .max(10_000, 'must be at most 10000')
      .optional()
      .openapi({ description: 'Basis points of the amount' }),
    amount: minorUnits.optional(),
    processingFee: flag.optional(),
    chargeRemainderFee: flag.optional(),
    liable: flag.optional(),
  })
  .superRefine((rule, ctx) => {
    if ((rule.percentage === undefined) === (rule.amount === undefined)) ctx.addIssue({ code: 'custom', message: 'give either percentage or amount' });
  })
  .openapi('SplitRuleInput', { description: 'A share of the charge; the shares add up to the amount' });

const arrayOf = <T extends z.ZodType>(item: T) => z.array(item, { error: requiredOr('must be an array') });

export const CreateChargeBody = z
  .object({
    merchantId: id,
    amount: minorUnits.openapi({ description: 'Minor units', example: 1000 }),
    currency: currency().default('BRL'),
    orderId: text(CHARGE_LIMITS.orderIdMaxLength).optional(),
    statementDescriptor: text(CHARGE_LIMITS.statementDescriptorMaxLength).optional(),
    description: text(CHARGE_LIMITS.descriptionMaxLength).optional(),
    capture: flag.default(true).openapi({ description: 'false only authorizes (pre_authorized); capture later' }),
    customerId: id.optional(),
    paymentMethod: PaymentMethodInput,
    paymentSource: PaymentSourceInput,
    splitRules: arrayOf(SplitRuleInput).max(100, 'must list at most 100 rules').optional(),
    fraudAnalysis: JsonObject.optional().openapi({ description: 'Data for the antifraud provider' }),
    threeDSecure2: JsonObject.optional().openapi({ description: 'Result of the 3DS2 authentication' }),
    appInfo: JsonObject.optional().openapi({ description: 'platform, device, system' }),
    paymentFlow: JsonObject.optional(),
  })
  .openapi('CreateChargeRequest');

export const CaptureChargeBody = z
  .object({ amount: minorUnits.optional().openapi({ description: 'At most the authorized amount; all of it when absent' }) })
  .openapi('CaptureChargeRequest');

export const VoidChargeBody = z
  .object({
    amount: minorUnits.optional().openapi({ description: 'A partial refund; all that is left when absent' }),
    splitRules: arrayOf(z.object({ sellerId: id, amount: minorUnits }))
      .max(100, 'must list at most 100 rules')
      .optional()
      .openapi({ description: 'How the refund is taken from the split receivers' }),
  })
  .openapi('VoidChargeRequest');

export const SandboxChargeStatusBody = z
  .object({ status: z.enum(SANDBOX_CHARGE_STATUSES, { error: requiredOr(oneOf(SANDBOX_CHARGE_STATUSES)) }) })
  .openapi('SandboxChargeStatusRequest');

export const AntifraudStatusBody = z
  .object({ status: z.enum(ANTIFRAUD_STATUSES, { error: requiredOr(oneOf(ANTIFRAUD_STATUSES)) }) })
  .openapi('AntifraudStatusRequest');

const ThreeDSCardSource = z.object({ sourceType: z.literal('card'), cardId: id }).openapi('ThreeDSCardSource');
const ThreeDSTokenSource = z.object({ sourceType: z.literal('token'), tokenId: id }).openapi('ThreeDSTokenSource');

export const ThreeDSSetupBody = z
  .discriminatedUnion('sourceType', [ThreeDSCardSource, ThreeDSTokenSource], variantError('sourceType', ['card', 'token']))
  .openapi('ThreeDSSetupRequest');

const INSTANT_OR_DAY = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/i;
const instantOrDayMessage = 'must be an RFC 3339 date-time or a date (YYYY-MM-DD)';

function isInstantOrDay(value: string): boolean {
  return INSTANT_OR_DAY.test(value) && !Number.isNaN(Date.parse(value));
}

const instant = z
  .string()
  .refine(isInstantOrDay, instantOrDayMessage)
  .transform((value) => new Date(value))
  .optional()
  .openapi({ type: 'string', example: '2026-03-01T00:00:00.000Z' });

const filter = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional();

export const ListChargesQuery = paginationQuery.extend({
  merchantId: filter,
  id: filter,
  sessionId: filter,
  status: commaJoined(CHARGE_STATUSES).optional(),
  paymentType: commaJoined(PAYMENT_TYPES).optional().openapi({ description: 'One or more payment types, comma-joined', example: 'credit,pix' }),
  orderId: filter,
  created: z.string().refine(isInstantOrDay, instantOrDayMessage).optional().openapi({ description: 'A day (YYYY-MM-DD) or an instant' }),
  'created.gt': instant.openapi({ description: 'Created after this instant' }),
  'created.lt': instant.openapi({ description: 'Created before this instant' }),
  providerType: filter.openapi({ description: 'One or more provider types, comma-joined', example: 'SANDBOX' }),
  originalAmount: queryAmount().optional().openapi({ description: 'Charges of exactly this original amount (minor units)' }),
  splitRules: queryFlag().optional().openapi({ description: 'true: only charges with split rules; false: only charges without' }),
});

export const ChargeParams = z.object({ id: z.string().min(1).max(200) });

/** The answers here are the API model's schemas. */
export { ChargeSchema, TransactionRequestSchema };

export const ChargeListSchema = listSchema(ChargeSchema, 'ChargeList');

export const ThreeDSSetupSchema = z
  .object({
    id: z.string(),
    token: z.string().openapi({ description: 'JWT for the device data collection' }),
    collectUrl: z.string(),
    providerType: z.string(),
  })
  .openapi('ThreeDSSetup');

export type { ChargeJson, TransactionRequestJson } from '@platform/api-model';
export type ThreeDSSetupJson = z.infer<typeof ThreeDSSetupSchema>;
export type CreateChargeInput = z.infer<typeof CreateChargeBody>;
export type VoidChargeInput = z.infer<typeof VoidChargeBody>;
export type ListChargesInput = z.infer<typeof ListChargesQuery>;
export type ThreeDSSetupInput = z.infer<typeof ThreeDSSetupBody>;
