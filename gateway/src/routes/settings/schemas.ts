import { blankToUndefined } from '../../http/json';
import { z } from '../../openapi/zod';

export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export const MAX_LOGO_BYTES = 1024 * 1024;

export const LINK_SETTINGS_FIELDS = ['mainColor', 'secondaryColor', 'attentionColor', 'errorColor', 'successColor', 'backgroundColor', 'companyUrl'] as const;
type LinkSettingsField = (typeof LINK_SETTINGS_FIELDS)[number];

// Empty strings are "not given": an HTML form sends every field, filled or not.
const optionalText = (max: number, example: string) =>
  z.preprocess(blankToUndefined, z.string().max(max, `must be at most ${max} characters`).optional()).openapi({ example });

export const LinkSettingsBody = z
  .object({
    mainColor: optionalText(32, '#1A73E8'),
    secondaryColor: optionalText(32, '#FFFFFF'),
    attentionColor: optionalText(32, '#F9AB00'),
    errorColor: optionalText(32, '#D93025'),
    successColor: optionalText(32, '#188038'),
    backgroundColor: optionalText(32, '#F8F9FA'),
    companyUrl: optionalText(2048, 'https://shop.example.com'),
  })
  .openapi('LinkSettingsRequest', { description: 'Empty fields are ignored. A logo is uploaded with multipart/form-data.' });

export const MerchantHeaders = z.object({
  'x-merchant-id': z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Merchant scope; without it, the client default settings' }),
});

export const LogoParams = z.object({ logoId: z.string().min(1).max(200) });

const color = z.string().nullable();

export const LinkSettingsSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    merchantId: z.string().nullable().openapi({ description: 'null for the client default' }),
    ...(Object.fromEntries(LINK_SETTINGS_FIELDS.map((f) => [f, color])) as Record<LinkSettingsField, typeof color>),
    logo: z.url().nullable().openapi({ description: 'Public URL of the logo' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('LinkSettings');

export type LinkSettingsJson = z.infer<typeof LinkSettingsSchema>;
export type LinkSettingsInput = z.infer<typeof LinkSettingsBody>;
