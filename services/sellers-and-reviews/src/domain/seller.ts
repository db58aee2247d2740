import { brazilDate, DATE_MESSAGE, DATE_RANGE, isCalendarDate, SELLER_STATUSES, type SellerStatus } from '@platform/api-model';
import { errors, type FieldViolation } from '@platform/kit';
import { z } from 'zod';
import { documentIsValid } from './documents';

export { SELLER_STATUSES, type SellerStatus };

export const LINK_STATUSES = ['pending', 'active', 'inactive', 'blocked'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** A JSON object as stored and shown (owner, business, bank account, transfer policy). */
export type JsonObject = { [key: string]: unknown };

/**
 * The client's metadata, kept in the shape it came: an object (as the description documents) or a list of objects
 * (what the public Node SDK sends, `[{key, value}]`). Shown back in that same shape.
 */
export type SellerMetadata = JsonObject | JsonObject[];

export interface ProviderLink {
  providerId: string;
  providerType: string;
  externalId: string;
  externalStatus: string;
  externalStatusReason: string;
  status: LinkStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface Seller {
  id: string;
  clientId: string;
  merchantId: string;
  mcc: string;
  status: SellerStatus;
  owner: JsonObject;
  business: JsonObject | null;
  bankAccount: JsonObject;
  transferPolicy: JsonObject | null;
  metadata: SellerMetadata | null;
  rateAgreements: JsonObject[];
  salesPlanId: string;
  planId: string;
  providers: ProviderLink[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Seller status steps. `inactive` is final (a deleted seller); `blocked` leaves only when its expired review is
 * resolved or the seller is deleted.
 */
export const SELLER_TRANSITIONS: Readonly<Record<SellerStatus, readonly SellerStatus[]>> = {
  pending: ['active', 'partial', 'inactive', 'blocked'],
  active: ['partial', 'inactive', 'blocked'],
  partial: ['active', 'inactive', 'blocked'],
  blocked: ['active', 'partial', 'inactive'],
  inactive: [],
};

export function canMoveSeller(from: SellerStatus, to: SellerStatus): boolean {
  return from === to || SELLER_TRANSITIONS[from].includes(to);
}

/** The seller's status its provider links give: any blocked link blocks it; all active: active; some: partial. */
export function statusFromLinks(links: readonly Pick<ProviderLink, 'status'>[]): SellerStatus {
  if (links.some((l) => l.status === 'blocked')) return 'blocked';
  const active = links.filter((l) => l.status === 'active').length;
  if (links.length > 0 && active === links.length) return 'active';
  if (active > 0) return 'partial';
  if (links.length > 0 && links.every((l) => l.status === 'inactive')) return 'inactive';
  return 'pending';
}

/** The next status of a seller after its links changed; refuses a step the table does not allow. */
export function nextSellerStatus(current: SellerStatus, links: readonly Pick<ProviderLink, 'status'>[]): SellerStatus {
  const next = statusFromLinks(links);
  if (!canMoveSeller(current, next)) throw errors.businessRule('seller_status_transition', `a seller cannot go from ${current} to ${next}`);
  return next;
}

const text = (max = 500) => z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const optionalText = (max = 500) => z.string({ error: 'must be a string' }).trim().max(max, `must be at most ${max} characters`).optional();
/** A real calendar date (not 0000-00-00 nor 2026-02-30); how far back or ahead is checked against the clock. */
const date = z.string({ error: 'must be a date' }).refine(isCalendarDate, DATE_MESSAGE);

export const BIRTHDATE_MESSAGE = `must be a date in the past, from ${DATE_RANGE.earliest}`;
export const OPENING_DATE_MESSAGE = `must be a date from ${DATE_RANGE.earliest}, not after today`;

/** What is wrong with a birthdate that is a calendar date: it is today or later (in Brasília), or before 1900. */
export function birthdateProblem(day: string, now: Date): string | undefined {
  return day < DATE_RANGE.earliest || day >= brazilDate(now) ? BIRTHDATE_MESSAGE : undefined;
}

/** What is wrong with a company's opening date that is a calendar date: after today (in Brasília), or before 1900. */
function openingDateProblem(day: string, now: Date): string | undefined {
  return day < DATE_RANGE.earliest || day > brazilDate(now) ? OPENING_DATE_MESSAGE : undefined;
}

/** The rules of the body's dates that read the clock; a value that is no calendar date is the schema's to name. */
function datesAgainstToday(body: unknown, now: Date): FieldViolation[] {
  const problems: FieldViolation[] = [];
  const dayAt = (part: string, field: string): string | undefined => {
    const object = (body as Record<string, unknown> | null | undefined)?.[part];
    const value = object && typeof object === 'object' ? (object as Record<string, unknown>)[field] : undefined;
    return typeof value === 'string' && isCalendarDate(value) ? value : undefined;
  };
  const birthdate = dayAt('owner', 'birthdate');
  const birthdateWrong = birthdate === undefined ? undefined : birthdateProblem(birthdate, now);
  if (birthdateWrong) problems.push({ field: 'owner.birthdate', message: birthdateWrong });
  const openingDate = dayAt('business', 'openingDate');
  const openingWrong = openingDate === undefined ? undefined : openingDateProblem(openingDate, now);
  if (openingWrong) problems.push({ field: 'business.openingDate', message: openingWrong });
  return problems;
}

const TRANSFER_DAY_MESSAGE = 'must be a whole number from 0 to 31';

/**
 * The day transfers are made (the documented range, as the public description's providers take it): 0 for a daily
 * interval, 1 (Monday) to 5 (Friday) for a weekly one, 1 to 31 for a monthly one; 0 to 31 when the interval is
 * another or absent. A numeric string is taken as its number; an empty string is not given.
 */
function transferDayProblem(value: unknown, interval: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const day = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,2}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(day) || day < 0 || day > 31) return TRANSFER_DAY_MESSAGE;
  switch (interval?.toLowerCase()) {
    case 'daily':
      return day === 0 ? undefined : 'must be 0 for a daily interval';
    case 'weekly':
      return day >= 1 && day <= 5 ? undefined : 'must be from 1 (Monday) to 5 (Friday) for a weekly interval';
    case 'monthly':
      return day >= 1 ? undefined : 'must be from 1 to 31 for a monthly interval';
    default:
      return undefined;
  }
}

const documentSchema = z.object({
  type: text(20).transform((t) => t.toLowerCase()),
  number: text(40),
  country: optionalText(2),
});

const addressSchema = z.object({
  street: optionalText(),
  streetNumber: optionalText(),
  complement: optionalText(),
  zipCode: optionalText(20),
  country: optionalText(2),
  state: optionalText(),
  city: optionalText(),
  district: optionalText(),
  referencePoint: optionalText(),
});

const ownerSchema = z.object({
  name: text(),
  email: z.string({ error: 'must be a string' }).trim().email('must be an e-mail address').max(254),
  phoneNumber: optionalText(40),
  birthdate: date.optional(),
  document: documentSchema,
  address: addressSchema.optional(),
  businessCategory: optionalText(),
});

const businessSchema = z.object({
  name: optionalText(),
  corporateReason: text(),
  phoneNumber: optionalText(40),
  email: z.string({ error: 'must be a string' }).trim().email('must be an e-mail address').max(254).optional(),
  website: optionalText(),
  description: optionalText(2000),
  facebook: optionalText(),
  twitter: optionalText(),
  openingDate: date.optional(),
  annualRevenue: z.number({ error: 'must be a number' }).nonnegative('must not be negative').optional(),
  address: addressSchema.optional(),
  document: documentSchema,
});

const bankAccountSchema = z.object({
  holderName: text(),
  holderDocument: text(40),
  bank: text(10),
  branchNumber: text(10),
  branchCheckDigit: optionalText(2),
  accountNumber: text(20),
  accountCheckDigit: text(2),
  type: text(40),
});

const transferPolicySchema = z
  .object({
    transferDay: z.union([z.number(), z.string()], { error: TRANSFER_DAY_MESSAGE }).optional(),
    transferEnabled: z.boolean({ error: 'must be a boolean' }).optional(),
    transferInterval: optionalText(40),
    automaticAnticipationEnabled: z.boolean({ error: 'must be a boolean' }).optional(),
    anticipatableVolumePercentage: z.union([z.number(), z.string()]).optional(),
    automaticAnticipationType: z.union([z.number(), z.string()]).optional(),
    automaticAnticipationDays: z.union([z.number(), z.string()]).optional(),
    automaticAnticipation1025Delay: z.union([z.number(), z.string()]).optional(),
  })
  .superRefine((policy, ctx) => {
    const problem = transferDayProblem(policy.transferDay, policy.transferInterval);
    if (problem) ctx.addIssue({ code: 'custom', path: ['transferDay'], message: problem });
  });

const metadataObjectSchema = z.record(z.string(), z.unknown(), { error: 'must be an object or a list of objects' });
const metadataListSchema = z.array(z.record(z.string(), z.unknown(), { error: 'must be an object' }));

/** An object or a list of objects; a bad entry of a list is named by its index (`metadata.1`). */
const metadataSchema = z.unknown().transform((value, ctx): SellerMetadata => {
  const result = Array.isArray(value) ? metadataListSchema.safeParse(value) : metadataObjectSchema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

/** The create body (and a PATCH merged over the stored seller), as the public description has it. */
export const sellerInputSchema = z
  .object({
    merchantId: text(200),
    mcc: z.union([z.number().int('must be an integer').nonnegative(), z.string().regex(/^\d{1,6}$/, 'must be a number')], { error: 'must be a number' }),
    owner: ownerSchema,
    business: businessSchema.nullable().optional(),
    bankAccount: bankAccountSchema,
    transferPolicy: transferPolicySchema.nullable().optional(),
    rateAgreements: z.array(z.record(z.string(), z.unknown()), { error: 'must be an array of objects' }).optional(),
    salesPlanId: optionalText(200),
    planId: optionalText(200),
    metadata: metadataSchema.nullable().optional(),
  })
  .superRefine((input, ctx) => {
    if (!documentIsValid(input.owner.document.type, input.owner.document.number)) {
      ctx.addIssue({ code: 'custom', path: ['owner', 'document', 'number'], message: `is not a valid ${input.owner.document.type.toUpperCase()}` });
    }
    const legalEntity = input.owner.document.type !== 'cpf';
    if (legalEntity && !input.business) {
      ctx.addIssue({ code: 'custom', path: ['business'], message: 'is required for a legal entity (owner.document.type other than cpf)' });
    }
    if (input.business && !documentIsValid(input.business.document.type, input.business.document.number)) {
      ctx.addIssue({ code: 'custom', path: ['business', 'document', 'number'], message: `is not a valid ${input.business.document.type.toUpperCase()}` });
    }
  });

export type SellerInput = z.infer<typeof sellerInputSchema>;

/**
 * Validates a create body or a merged PATCH; 400 with one detail per bad field (its dotted path). `now` is the
 * service's clock, for the dates that must be past (a birthdate) or not ahead (an opening date).
 */
export function parseSellerInput(body: unknown, now: Date): SellerInput {
  const result = sellerInputSchema.safeParse(body);
  const details: FieldViolation[] = result.success
    ? []
    : result.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.') || 'body',
        message: issue.message,
      }));
  details.push(...datesAgainstToday(body, now));
  if (result.success && details.length === 0) return result.data;
  throw errors.validation(`invalid seller: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

const NESTED = ['address', 'document'] as const;
const META_KEYS = new Set(['id', 'createdAt', 'updatedAt']);

function withoutMeta(value: JsonObject | null | undefined): JsonObject | null {
  if (!value) return null;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (META_KEYS.has(k)) continue;
    out[k] = NESTED.includes(k as (typeof NESTED)[number]) && v && typeof v === 'object' ? withoutMeta(v as JsonObject) : v;
  }
  return out;
}

function sameContent(a: JsonObject | null, b: JsonObject | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A nested object as stored: its fields plus `id`, `createdAt` and `updatedAt` (kept from the previous version,
 * `updatedAt` moved only when its content changed); its address and document likewise.
 */
export function stamp(next: JsonObject | null | undefined, previous: JsonObject | null | undefined, now: Date, newId: () => string): JsonObject | null {
  if (!next) return null;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(next)) {
    if (v === undefined || META_KEYS.has(k)) continue;
    if (NESTED.includes(k as (typeof NESTED)[number]) && v && typeof v === 'object') {
      out[k] = stamp(v as JsonObject, (previous?.[k] as JsonObject | undefined) ?? null, now, newId);
    } else out[k] = v;
  }
  const unchanged = previous && sameContent(withoutMeta(out), withoutMeta(previous));
  out.id = typeof previous?.id === 'string' ? previous.id : newId();
  out.createdAt = typeof previous?.createdAt === 'string' ? previous.createdAt : now.toISOString();
  out.updatedAt = unchanged && typeof previous?.updatedAt === 'string' ? previous.updatedAt : now.toISOString();
  return out;
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep merge of a PATCH over the stored fields: objects merged key by key, anything else replaced. */
export function mergeChanges(base: JsonObject, changes: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(changes)) {
    out[k] = isPlainObject(v) && isPlainObject(base[k]) ? mergeChanges(base[k], v) : v;
  }
  return out;
}

/** The seller as a create body (no ids or timestamps), for merging a PATCH and validating the result. */
export function sellerAsInput(seller: Seller): JsonObject {
  const input: JsonObject = {
    merchantId: seller.merchantId,
    mcc: seller.mcc,
    owner: withoutMeta(seller.owner),
    bankAccount: withoutMeta(seller.bankAccount),
    rateAgreements: seller.rateAgreements,
  };
  if (seller.business) input.business = withoutMeta(seller.business);
  if (seller.transferPolicy) input.transferPolicy = withoutMeta(seller.transferPolicy);
  if (seller.metadata) input.metadata = seller.metadata;
  if (seller.salesPlanId) input.salesPlanId = seller.salesPlanId;
  if (seller.planId) input.planId = seller.planId;
  return input;
}

/** The document numbers a seller is known by (owner's and business's), digits only, for matching review processes. */
export function sellerDocuments(seller: Pick<Seller, 'owner' | 'business'>): string[] {
  const numbers: string[] = [];
  for (const part of [seller.owner, seller.business]) {
    const doc = part?.document as JsonObject | undefined;
    if (doc && typeof doc.number === 'string') numbers.push(doc.number.replace(/\D/g, ''));
  }
  return numbers;
}
