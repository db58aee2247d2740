import type { sellers } from '@platform/contracts';
import { SELLER_STATUSES } from '../enums';
import { z } from '../zod';
import { objectOrNull, requiredTimestamp, textOrNull } from './json';

const object = z.record(z.string(), z.unknown());
const nullableObject = object.nullable();

/**
 * The client's own data about the seller, shown back in the shape it came: an object, or a list of objects (the public
 * Node SDK sends `[{key, value}]`). The sellers service checks the entries.
 */
export const SellerMetadataSchema = z.union([object, z.array(object)]).openapi({
  description: 'Free data of the client: an object, or a list of objects as the public Node SDK sends it ([{key, value}]); answered in the same shape',
  example: [{ key: '768093', value: 'Additional information' }],
});

/**
 * A seller: the answer of /v1/sellers and the `data` of `sellers.seller.*` events. `owner`, `business`,
 * `bankAccount` and `transferPolicy` are shown as stored: each nested object (and its address and document) with its
 * own `id`, `createdAt` and `updatedAt`. `mcc` is a string.
 */
export const SellerSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    merchantId: z.string(),
    mcc: z.string(),
    status: z.string().openapi({ description: SELLER_STATUSES.join(', ') }),
    owner: nullableObject,
    business: nullableObject,
    bankAccount: nullableObject,
    transferPolicy: nullableObject,
    rateAgreements: z.array(object),
    salesPlanId: z.string().nullable(),
    planId: z.string().nullable(),
    metadata: SellerMetadataSchema.nullable(),
    providers: z.array(
      z.object({
        providerId: z.string(),
        providerType: z.string(),
        externalId: z.string().nullable(),
        externalStatus: z.string().nullable(),
        externalStatusReason: z.string().nullable(),
        status: z.string(),
        createdAt: z.string().openapi({ format: 'date-time' }),
        updatedAt: z.string().openapi({ format: 'date-time' }),
      }),
    ),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Seller');

export type SellerJson = z.infer<typeof SellerSchema>;
/** One link of a seller to a provider of its merchant. */
export type SellerProviderJson = SellerJson['providers'][number];

export function toSellerJson(seller: sellers.Seller): SellerJson {
  return {
    id: seller.id,
    clientId: seller.clientId,
    merchantId: seller.merchantId,
    mcc: seller.mcc,
    status: seller.status,
    owner: objectOrNull(seller.owner),
    business: objectOrNull(seller.business),
    bankAccount: objectOrNull(seller.bankAccount),
    transferPolicy: objectOrNull(seller.transferPolicy),
    rateAgreements: seller.rateAgreements,
    salesPlanId: textOrNull(seller.salesPlanId),
    planId: textOrNull(seller.planId),
    metadata: seller.metadataList ?? objectOrNull(seller.metadata),
    providers: seller.providers.map((p) => ({
      providerId: p.providerId,
      providerType: p.providerType,
      externalId: textOrNull(p.externalId),
      externalStatus: textOrNull(p.externalStatus),
      externalStatusReason: textOrNull(p.externalStatusReason),
      status: p.status,
      createdAt: requiredTimestamp(p.createdAt, 'providers.createdAt'),
      updatedAt: requiredTimestamp(p.updatedAt, 'providers.updatedAt'),
    })),
    createdAt: requiredTimestamp(seller.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(seller.updatedAt, 'updatedAt'),
  };
}
