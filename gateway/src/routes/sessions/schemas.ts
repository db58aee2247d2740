import { PAYMENT_TYPES, SESSION_STATUSES, SessionHistoryItemSchema, SessionSchema } from '@platform/api-model';
import { amount, currency, dateTime as instant, dueDate, int32 } from '../../http/fields';
import { JsonObject, JsonObjectOut } from '../../http/json';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';
import { PaymentMethodInput, PaymentSourceInput, SplitRuleInput } from '../charges/schemas';

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const text = (max: number) => z.string({ error: requiredOr('must be a string') }).max(max, `must be at most ${max} characters`);
const id = text(200).min(1, 'must not be empty');
const flag = z.boolean({ error: requiredOr('must be true or false') });
const dateTime = instant();
const maxPayments = int32()
  .refine((v) => v === -1 || (v >= 1 && v <= 99_999), 'must be -1 (unlimited) or between 1 and 99999')
  .openapi({ description: '-1 unlimited, or 1..99999; absent: the session is paid once (1:1)' });
const arrayOf = <T extends z.ZodType>(item: T) => z.array(item, { error: requiredOr('must be an array') });

/** A method the session accepts, with its settings for the charges it makes. */
export const SessionPaymentMethodInput = z
  .object({
    paymentType: z.enum(PAYMENT_TYPES, { error: requiredOr(oneOf(PAYMENT_TYPES)) }),
    installments: int32().min(1, 'must be at least 1').max(24, 'must be at most 24').optional(),
    expiresIn: int32('must be a whole number of seconds').min(1, 'must be at least 1').optional().openapi({ description: 'Pix: seconds until the QR code expires' }),
    expiresDate: dueDate().optional().openapi({ description: 'Boleto: due date' }),
    instructions: text(500).optional(),
  })
  .openapi('SessionPaymentMethodInput');

export const SessionItemInput = z
  .object({
    name: text(200).min(1, 'must not be empty'),
    unitPrice: int32('must be a whole number of minor units').min(0, 'must not be negative'),
    quantity: int32().min(1, 'must be at least 1').max(99_999, 'must be at most 99999'),
    description: text(500).optional(),
  })
  .openapi('SessionItemInput');

export const CreateSessionBody = z
  .object({
    merchantId: id,
    name: text(200).optional(),
    orderId: text(200).optional(),
    amount: amount().min(1, 'must be at least 1').optional().openapi({ description: 'The items total when absent; must equal it when given' }),
    currency: currency().default('BRL'),
    capture: flag.optional(),
    dueDate: dateTime.optional().openapi({ type: 'string', format: 'date-time' }),
    isActive: flag.optional(),
    maxPayments: maxPayments.optional(),
    paymentMethods: arrayOf(SessionPaymentMethodInput).min(1, 'must name at least one payment method').max(5, 'must list at most 5 methods'),
    items: arrayOf(SessionItemInput).min(1, 'must have at least one item').max(100, 'must list at most 100 items'),
    splitRules: arrayOf(SplitRuleInput).max(100, 'must list at most 100 rules').optional(),
    statementDescriptor: text(22).optional(),
  })
  .openapi('CreateSessionRequest');

export const UpdateSessionBody = z
  .object({
    isActive: flag,
    dueDate: dateTime.optional().openapi({ type: 'string', format: 'date-time' }),
    maxPayments: maxPayments.optional(),
  })
  .openapi('UpdateSessionRequest');

export const ChargeSessionBody = z
  .object({
    customerId: id.optional(),
    paymentMethod: PaymentMethodInput,
    paymentSource: PaymentSourceInput,
    fraudAnalysis: JsonObject.optional(),
  })
  .openapi('ChargeSessionRequest');

const filter = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional();
const queryFlag = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true').optional();
const queryInstant = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date-time' }).transform((v) => new Date(v)).optional();


export const ListSessionsQuery = paginationQuery.extend({
  id: filter,
  status: z.enum(SESSION_STATUSES, { error: oneOf(SESSION_STATUSES) }).optional(),
  isActive: queryFlag,
  merchantId: filter,
  orderId: filter,
  'multiplePayments.status': z.enum(['enabled', 'disabled'], { error: oneOf(['enabled', 'disabled']) }).optional(),
  'created.gt': queryInstant.openapi({ type: 'string', format: 'date-time' }),
  'created.lt': queryInstant.openapi({ type: 'string', format: 'date-time' }),
});

export const SessionParams = z.object({ id: z.string().min(1).max(200) });

/** The answers here are the API model's schemas. */
export { SessionHistoryItemSchema, SessionSchema };

export const SessionListSchema = listSchema(SessionSchema, 'SessionList');

export const SessionStateSchema = z.object({ id: z.string(), isActive: z.boolean() }).openapi('SessionState');
export const CanceledSessionSchema = z.object({ id: z.string(), status: z.string() }).openapi('CanceledSession');

export const SessionHistorySchema = z.array(SessionHistoryItemSchema).openapi('SessionHistory');

export const SessionLinkSchema = z
  .object({ session: SessionSchema, settings: JsonObjectOut.nullable() })
  .openapi('SessionLink');

export type CreateSessionInput = z.infer<typeof CreateSessionBody>;
export type ListSessionsInput = z.infer<typeof ListSessionsQuery>;
