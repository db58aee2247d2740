import { ADDRESS_FIELDS, CUSTOMER_LIMITS, DOCUMENT_TYPES, type AddressField, type DocumentType } from '@platform/api-model';
import { errors, parseInput } from '@platform/kit';
import { z } from 'zod';
import { isCountryCode } from './countries';

export { ADDRESS_FIELDS, DOCUMENT_TYPES, type AddressField, type DocumentType };

export const DEFAULT_COUNTRY = 'BR';

export type Address = Partial<Record<AddressField, string>>;

export interface CustomerDocument {
  type: DocumentType;
  number: string;
  country: string;
}

export interface Customer {
  id: string;
  clientId: string;
  name: string;
  email: string;
  phoneNumber: string;
  document: CustomerDocument;
  address: Address | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** A validated, normalised create request. */
export interface NewCustomer {
  name: string;
  email: string;
  phoneNumber: string;
  document: CustomerDocument;
  address: Address | null;
}

/** A validated update: only the fields present change. */
export interface CustomerChanges {
  name?: string;
  phoneNumber?: string;
  address?: AddressPatch;
}

/** A string sets the field, null removes it, a missing key keeps it. */
export type AddressPatch = Partial<Record<AddressField, string | null>>;

export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function normaliseDocumentType(raw: string): string {
  return raw.trim().toLowerCase();
}

/** Separators people type in a CPF or CNPJ (`123.456.789-09`, `12.345.678/0001-95`) are not part of the number. */
export function normaliseDocumentNumber(raw: string): string {
  return raw.replace(/[.\-/\s]/g, '').toUpperCase();
}

const DOCUMENT_NUMBER_RULES: Record<DocumentType, { pattern: RegExp; message: string }> = {
  cpf: { pattern: /^\d{11}$/, message: 'must be 11 digits for cpf' },
  cnpj: { pattern: /^\d{14}$/, message: 'must be 14 digits for cnpj' },
  passport: { pattern: /^[A-Z0-9]{1,30}$/, message: 'must be 1 to 30 letters or digits' },
  other: { pattern: /^[A-Z0-9]{1,30}$/, message: 'must be 1 to 30 letters or digits' },
};

const { nameMaxLength, emailMaxLength, phoneNumberMinLength, phoneNumberMaxLength, documentNumberMaxLength, addressFieldMaxLength } = CUSTOMER_LIMITS;

const nameSchema = z.string().trim().min(1, 'is required').max(nameMaxLength, `must be at most ${nameMaxLength} characters`);

const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be a valid e-mail address' }).max(emailMaxLength, `must be at most ${emailMaxLength} characters`));

const phoneNumberSchema = z
  .string()
  .trim()
  .regex(
    new RegExp(`^[0-9 +()-]{${phoneNumberMinLength},${phoneNumberMaxLength}}$`),
    `must be ${phoneNumberMinLength} to ${phoneNumberMaxLength} characters of digits, spaces or + ( ) -`,
  );

const documentSchema = z
  .object(
    {
      type: z
        .string()
        .transform(normaliseDocumentType)
        .pipe(z.enum(DOCUMENT_TYPES, { error: `must be one of ${DOCUMENT_TYPES.join(', ')}` })),
      number: z
        .string()
        .max(documentNumberMaxLength, `must be at most ${documentNumberMaxLength} characters`)
        .transform(normaliseDocumentNumber),
      country: z
        .string()
        .transform((c) => c.trim().toUpperCase() || DEFAULT_COUNTRY)
        .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code'),
    },
    { error: (issue) => (issue.input === undefined ? 'is required' : undefined) },
  )
  .superRefine((document, ctx) => {
    const rule = DOCUMENT_NUMBER_RULES[document.type];
    if (!rule.pattern.test(document.number)) ctx.addIssue({ code: 'custom', path: ['number'], message: rule.message });
  });

const addressValue = z.string().trim().max(addressFieldMaxLength, `must be at most ${addressFieldMaxLength} characters`);
const addressSchema = z.object(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, addressValue.optional()])) as Record<AddressField, z.ZodOptional<typeof addressValue>>);

const newCustomerSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  phoneNumber: phoneNumberSchema,
  document: documentSchema,
  address: addressSchema.optional(),
});

const changesSchema = z.object({
  name: nameSchema.optional(),
  phoneNumber: phoneNumberSchema.optional(),
  address: addressSchema.optional(),
});

export interface CreateCustomerInput {
  name: string;
  email: string;
  phoneNumber: string;
  document?: { type: string; number: string; country: string };
  address?: Address;
}

export function parseNewCustomer(input: CreateCustomerInput): NewCustomer {
  const parsed = parseInput(newCustomerSchema, input, 'Invalid customer');
  return {
    name: parsed.name,
    email: parsed.email,
    phoneNumber: parsed.phoneNumber,
    document: parsed.document,
    address: parsed.address ? compactAddress(parsed.address) : null,
  };
}

export interface UpdateCustomerInput {
  name?: string;
  phoneNumber?: string;
  address?: Address;
}

export function parseCustomerChanges(input: UpdateCustomerInput): CustomerChanges {
  const parsed = parseInput(changesSchema, input, 'Invalid customer');
  const changes: CustomerChanges = {};
  if (parsed.name !== undefined) changes.name = parsed.name;
  if (parsed.phoneNumber !== undefined) changes.phoneNumber = parsed.phoneNumber;
  if (parsed.address) {
    const patch: AddressPatch = {};
    for (const field of ADDRESS_FIELDS) {
      const value = parsed.address[field];
      if (value !== undefined) patch[field] = value === '' ? null : value;
    }
    if (Object.keys(patch).length > 0) changes.address = patch;
  }
  if (Object.keys(changes).length === 0) {
    throw errors.validation('Nothing to update: give at least one of name, phoneNumber or address');
  }
  return changes;
}

/** Keeps only the fields that carry a value; an address with none is no address. */
function compactAddress(address: Address): Address | null {
  const out: Address = {};
  for (const field of ADDRESS_FIELDS) {
    const value = address[field];
    if (value !== undefined && value !== '') out[field] = value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * An address update merges field by field instead of replacing the whole address, so a client can correct
 * the street number without resending the rest; an empty string in the request clears that one field.
 */
export function mergeAddress(current: Address | null, patch: AddressPatch): Address | null {
  const merged: Address = { ...(current ?? {}) };
  for (const field of ADDRESS_FIELDS) {
    if (!(field in patch)) continue;
    const value = patch[field];
    if (value === null || value === undefined) delete merged[field];
    else merged[field] = value;
  }
  return compactAddress(merged);
}

export function applyChanges(customer: Customer, changes: CustomerChanges, at: Date): Customer {
  return {
    ...customer,
    name: changes.name ?? customer.name,
    phoneNumber: changes.phoneNumber ?? customer.phoneNumber,
    address: changes.address ? mergeAddress(customer.address, changes.address) : customer.address,
    updatedAt: at,
  };
}

export interface ListFilters {
  id?: string;
  documentType?: string;
  documentNumber?: string;
  email?: string;
}

/** Filters compare with the stored, normalised values; an empty filter is no filter. */
export function normaliseListFilters(filters: ListFilters): ListFilters {
  const present = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v : undefined);
  const id = present(filters.id)?.trim().toLowerCase();
  const documentType = present(filters.documentType);
  const documentNumber = present(filters.documentNumber);
  const email = present(filters.email);
  return {
    ...(id !== undefined ? { id } : {}),
    ...(documentType !== undefined ? { documentType: normaliseDocumentType(documentType) } : {}),
    ...(documentNumber !== undefined ? { documentNumber: normaliseDocumentNumber(documentNumber) } : {}),
    ...(email !== undefined ? { email: normaliseEmail(email) } : {}),
  };
}
