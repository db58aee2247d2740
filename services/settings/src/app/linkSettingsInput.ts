import { createHash } from 'node:crypto';
import { requireClientId } from '@platform/kit';
import { effectiveFields, type LinkSettingsField, type LinkSettingsValues } from '../domain/linkSettings';
import { validateLogo, type LogoFile } from '../domain/logos';
import { merchantScope } from './scope';

export interface LinkSettingsWriteInput {
  clientId: string;
  merchantId: string;
  fields?: Partial<Record<LinkSettingsField, string | undefined>>;
  logo?: { contentType: string; data: Buffer };
}

export interface LinkSettingsWrite {
  clientId: string;
  merchantId: string | null;
  values: LinkSettingsValues;
  logo?: LogoFile;
}

/** A logo counts as sent when it carries a type or any bytes; an empty placeholder message is no upload. */
function sentLogo(logo: LinkSettingsWriteInput['logo']): logo is { contentType: string; data: Buffer } {
  return logo !== undefined && (logo.contentType !== '' || logo.data.length > 0);
}

export function parseLinkSettingsWrite(input: LinkSettingsWriteInput): LinkSettingsWrite {
  const clientId = requireClientId(input.clientId);
  const merchantId = merchantScope(input.merchantId);
  const values = effectiveFields(input.fields ?? {});
  const logo = sentLogo(input.logo) ? validateLogo(input.logo) : undefined;
  return logo ? { clientId, merchantId, values, logo } : { clientId, merchantId, values };
}

/** What identifies a write for X-Idempotency-Key: the logo by its digest, not its bytes. */
export function fingerprint(write: LinkSettingsWrite): unknown {
  return {
    merchantId: write.merchantId,
    values: write.values,
    logo: write.logo && { contentType: write.logo.contentType, sha256: createHash('sha256').update(write.logo.data).digest('hex') },
  };
}
