import { SELLER_STATUSES, SellerMetadataSchema, SellerSchema } from '@platform/api-model';
import { listSchema, paginationQuery } from '../../http/pagination';
import { z } from '../../openapi/zod';

const object = z.record(z.string(), z.unknown());

/** The client's own data about the seller: the API model's schema, as the answer shows it back. */
const metadata = SellerMetadataSchema;

/**
 * The seller body as the public description has it. The sellers service validates it as a whole (CPF and CNPJ check
 * digits, `business` for a legal entity, the bank account) and answers 400 naming each bad field by its dotted path.
 */
export const CreateSellerBody = z
  .object({
    merchantId: z.unknown().openapi({ type: 'string', description: 'A merchant of this client; the seller is registered at each of its providers' }),
    mcc: z.unknown().openapi({ type: 'number', description: 'Merchant category code at the acquirer', example: 5411 }),
    owner: object.openapi({
      description: 'name, email, phoneNumber, birthdate (YYYY-MM-DD, a real date in the past, from 1900-01-01), document {type, number, country}, address, businessCategory',
    }),
    business: object.optional().openapi({
      description: 'Required for a legal entity (owner.document.type other than cpf); its openingDate (YYYY-MM-DD) is from 1900-01-01 and not after today',
    }),
    bankAccount: object.openapi({ description: 'holderName, holderDocument, bank, branchNumber, branchCheckDigit, accountNumber, accountCheckDigit, type' }),
    transferPolicy: object.optional().openapi({
      description:
        'transferDay: a whole number from 0 to 31 (0 for a daily transferInterval, 1 Monday to 5 Friday for weekly, 1 to 31 for monthly), transferEnabled, transferInterval, automaticAnticipation*',
      example: { transferDay: 5, transferEnabled: true, transferInterval: 'weekly' },
    }),
    rateAgreements: z.array(object).optional(),
    salesPlanId: z.string().optional(),
    planId: z.string().optional(),
    metadata: metadata.optional(),
  })
  .partial()
  .passthrough()
  .openapi('CreateSellerRequest');

export const UpdateSellerBody = CreateSellerBody.openapi('UpdateSellerRequest');

const filter = z.string().min(1, 'must not be empty').max(254).optional();

export const ListSellersQuery = paginationQuery.extend({
  id: filter,
  email: filter,
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim()) : []))
    .pipe(z.array(z.enum(SELLER_STATUSES, { error: `must be among ${SELLER_STATUSES.join(', ')}` })))
    .openapi({ type: 'string', description: `One or more of ${SELLER_STATUSES.join(', ')}, comma-separated` }),
  businessName: filter,
  merchantId: filter,
});

export const SellerParams = z.object({ id: z.string().min(1).max(200) });

/** The answers here are the API model's schemas. */
export { SellerSchema };

export const SellerListSchema = listSchema(SellerSchema, 'SellerList');

export type CreateSellerInput = z.infer<typeof CreateSellerBody>;
export type ListSellersInput = z.infer<typeof ListSellersQuery>;
