import type { settings } from '@platform/contracts';
import type { UploadedFile } from '../../http/body';
import { requiredTimestamp, textOrNull } from '../../http/json';
import type { LinkSettingsInput, LinkSettingsJson } from './schemas';

export function logoUrl(publicUrl: string, logoId: string): string {
  return `${publicUrl}/v1/settings/logos/${encodeURIComponent(logoId)}`;
}

export function toLinkSettingsJson(value: settings.LinkSettings, publicUrl: string): LinkSettingsJson {
  return {
    id: value.id,
    clientId: value.clientId,
    merchantId: textOrNull(value.merchantId),
    mainColor: textOrNull(value.mainColor),
    secondaryColor: textOrNull(value.secondaryColor),
    attentionColor: textOrNull(value.attentionColor),
    errorColor: textOrNull(value.errorColor),
    successColor: textOrNull(value.successColor),
    backgroundColor: textOrNull(value.backgroundColor),
    companyUrl: textOrNull(value.companyUrl),
    logo: value.logoId ? logoUrl(publicUrl, value.logoId) : null,
    createdAt: requiredTimestamp(value.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(value.updatedAt, 'updatedAt'),
  };
}

/** The write request, for the exact scope: the merchant in X-Merchant-Id, else the client default. */
export function toLinkSettingsWrite(
  clientId: string,
  merchantId: string | undefined,
  input: LinkSettingsInput,
  logo: UploadedFile | undefined,
): settings.CreateLinkSettingsRequest & settings.UpdateLinkSettingsRequest {
  return {
    clientId,
    merchantId: merchantId ?? '',
    fields: {
      mainColor: input.mainColor,
      secondaryColor: input.secondaryColor,
      attentionColor: input.attentionColor,
      errorColor: input.errorColor,
      successColor: input.successColor,
      backgroundColor: input.backgroundColor,
      companyUrl: input.companyUrl,
    },
    logo: logo ? { contentType: logo.contentType, data: logo.data } : undefined,
  };
}
