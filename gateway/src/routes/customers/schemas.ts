import { ADDRESS_FIELDS, CUSTOMER_LIMITS, CustomerCardSchema, CustomerSchema, DOCUMENT_TYPES, type AddressField } from '@platform/api-model';
import { paginationQuery, listSchema } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

const required = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const addressValue = z.string().max(CUSTOMER_LIMITS.addressFieldMaxLength, `must be at most ${CUSTOMER_LIMITS.addressFieldMaxLength} characters`);

function addressOf<S extends z.ZodType>(value: S) {
  return z.object(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, value])) as Record<AddressField, S>);
}

export const AddressInput = addressOf(addressValue.optional()).openapi('AddressInput');
export const AddressPatch = addressOf(
  addressValue.nullable().optional().openapi({ description: 'A string sets the field, null or "" clears it, absent keeps it' }),
).openapi('AddressPatch');

const phoneNumber = z
  .string()
  .min(CUSTOMER_LIMITS.phoneNumberMinLength, `must be at least ${CUSTOMER_LIMITS.phoneNumberMinLength} characters`)
  .max(CUSTOMER_LIMITS.phoneNumberMaxLength, `must be at most ${CUSTOMER_LIMITS.phoneNumberMaxLength} characters`)
  .openapi({ description: 'Digits, spaces and + ( ) -', example: '+55 11 98888-7777' });

export const DocumentInput = z
  .object({
    type: required(20).openapi({ example: 'cpf', description: `One of ${DOCUMENT_TYPES.join(', ')}` }),
    number: required(CUSTOMER_LIMITS.documentNumberMaxLength).openapi({ example: '12345678909', description: 'Separators (. - / and spaces) are ignored' }),
    country: z.string().max(64, 'must be at most 64 characters').optional().openapi({ example: 'BR', description: 'BR when absent' }),
  })
  .openapi('DocumentInput');

export const CreateCustomerBody = z
  .object({
    name: required(CUSTOMER_LIMITS.nameMaxLength),
    email: z.email('must be a valid e-mail address').max(CUSTOMER_LIMITS.emailMaxLength, `must be at most ${CUSTOMER_LIMITS.emailMaxLength} characters`),
    phoneNumber: phoneNumber,
    document: DocumentInput,
    address: AddressInput.optional(),
  })
  .openapi('CreateCustomerRequest');

export const UpdateCustomerBody = z
  .object({
    name: required(CUSTOMER_LIMITS.nameMaxLength).optional(),
    phoneNumber: phoneNumber.optional(),
    address: AddressPatch.optional(),
  })
  .openapi('UpdateCustomerRequest');

export const CreateCustomerQuery = z.object({
  force: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true')
    .openapi({ description: 'true skips the per-client uniqueness of e-mail and document' }),
});

const filter = z.string().min(1, 'must not be empty').max(254).optional();

export const ListCustomersQuery = paginationQuery.extend({
  id: filter,
  'document.type': filter,
  'document.number': filter,
  email: filter,
});

export const CustomerParams = z.object({ id: z.string().min(1).max(200) });

/** The customer answers are the API model's schemas. */
export { CustomerCardSchema, CustomerSchema };

export const CustomerListSchema = listSchema(CustomerSchema, 'CustomerList');

export type CreateCustomerInput = z.infer<typeof CreateCustomerBody>;
export type UpdateCustomerInput = z.infer<typeof UpdateCustomerBody>;
export type ListCustomersInput = z.infer<typeof ListCustomersQuery>;

export const AddCustomerCardBody = z
  .object({
    cardId: z.string({ error: requiredOr('must be a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').openapi({ description: 'A saved card (POST /v1/cards) of this client' }),
  })
  .openapi('AddCustomerCardRequest');

export const ListCustomerCardsQuery = paginationQuery;

export const CustomerCardListSchema = listSchema(CustomerCardSchema, 'CustomerCardList');

export type AddCustomerCardInput = z.infer<typeof AddCustomerCardBody>;
