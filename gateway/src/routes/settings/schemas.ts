import { LINK_SETTINGS_LIMITS, LinkSettingsSchema } from '@platform/api-model';
import { webUrl } from '../../http/fields';
import { blankToUndefined } from '../../http/json';
import { z } from '../../openapi/zod';


// Empty strings are "not given": an HTML form sends every field, filled or not.
const optionalText = (max: number, example: string) =>
  z.preprocess(blankToUndefined, z.string().max(max, `must be at most ${max} characters`).optional()).openapi({ example });

export const LinkSettingsBody = z
  .object({
    mainColor: optionalText(LINK_SETTINGS_LIMITS.colorMaxLength, '#1A73E8'),
    secondaryColor: optionalText(LINK_SETTINGS_LIMITS.colorMaxLength, '#FFFFFF'),
    attentionColor: optionalText(LINK_SETTINGS_LIMITS.colorMaxLength, '#F9AB00'),
    errorColor: optionalText(LINK_SETTINGS_LIMITS.colorMaxLength, '#D93025'),
    successColor: optionalText(LINK_SETTINGS_LIMITS.colorMaxLength, '#188038'),
    backgroundColor: optionalText(LINK_SETTINGS_LIMITS.colorMaxLength, '#F8F9FA'),
    companyUrl: z.preprocess(blankToUndefined, webUrl(LINK_SETTINGS_LIMITS.companyUrlMaxLength).optional()).openapi({ example: 'https://shop.example.com' }),
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

/** The answers here are the API model's schemas. */
export { LinkSettingsSchema };

export type LinkSettingsInput = z.infer<typeof LinkSettingsBody>;
