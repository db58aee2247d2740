import type { settings } from '@platform/contracts';
import type { UploadedFile } from '../../http/body';
import type { LinkSettingsInput } from './schemas';

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
