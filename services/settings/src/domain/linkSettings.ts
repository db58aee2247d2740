import { createHash } from 'node:crypto';
import {
  isWebUrl as isSharedWebUrl,
  LINK_SETTINGS_COLOR_FIELDS,
  LINK_SETTINGS_FIELDS,
  LINK_SETTINGS_LIMITS,
  WEB_URL_MESSAGE,
  type LinkSettingsField,
} from '@platform/api-model';
import type { FieldViolation } from '@platform/kit';
import { invalid } from './validation';

export const COLOR_FIELDS = LINK_SETTINGS_COLOR_FIELDS;
export { LINK_SETTINGS_FIELDS, type LinkSettingsField };

/** Values of the text fields; an absent one is not set. */
export type LinkSettingsValues = Partial<Record<LinkSettingsField, string>>;

export interface LinkSettings extends LinkSettingsValues {
  id: string;
  clientId: string;
  /** null for the client default. */
  merchantId: string | null;
  logoId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const MAX_URL_LENGTH = LINK_SETTINGS_LIMITS.companyUrlMaxLength;

export function isColor(value: string): boolean {
  return value.length <= LINK_SETTINGS_LIMITS.colorMaxLength && COLOR.test(value);
}

/** An http or https URL with a host and no user name or password, as the gateway checks it (api-model). */
export function isWebUrl(value: string): boolean {
  return isSharedWebUrl(value, MAX_URL_LENGTH);
}

/**
 * The fields a write actually sets: absent and empty (or blank) values are ignored, as the REST contract says;
 * what is left must be valid.
 */
export function effectiveFields(input: Partial<Record<LinkSettingsField, string | undefined>>): LinkSettingsValues {
  const values: LinkSettingsValues = {};
  const problems: FieldViolation[] = [];
  for (const field of LINK_SETTINGS_FIELDS) {
    const value = input[field]?.trim();
    if (!value) continue;
    if (field === 'companyUrl') {
      if (!isWebUrl(value)) problems.push({ field, message: WEB_URL_MESSAGE });
    } else if (!isColor(value)) {
      problems.push({ field, message: 'must be a color as #RGB, #RRGGBB or #RRGGBBAA' });
    }
    values[field] = value;
  }
  if (problems.length > 0) invalid(problems);
  return values;
}

export function hasEffectiveFields(values: LinkSettingsValues): boolean {
  return Object.keys(values).length > 0;
}

/** The scope as the error messages name it. */
export function describeScope(merchantId: string | null): string {
  return merchantId === null ? 'the client default' : `merchant ${merchantId}`;
}

/** The colors of a payment link whose client never changed them. */
export const PLATFORM_DEFAULT_COLORS: Readonly<Record<(typeof COLOR_FIELDS)[number], string>> = {
  mainColor: '#1A73E8',
  secondaryColor: '#FFFFFF',
  attentionColor: '#F9AB00',
  errorColor: '#D93025',
  successColor: '#188038',
  backgroundColor: '#F8F9FA',
};

/**
 * The id of a client's default settings, the same before and after they are first stored: a name-based UUID
 * (version 5 layout) of the client id.
 */
export function clientDefaultSettingsId(clientId: string): string {
  const hex = createHash('sha1').update(`link-settings:client-default:${clientId}`).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/**
 * A client always has payment-link settings: until it stores its own, the client default is the platform's
 * colors, no logo and no company URL, dated from the client's creation.
 */
export function platformDefaultSettings(client: { id: string; createdAt: Date }): LinkSettings {
  return {
    id: clientDefaultSettingsId(client.id),
    clientId: client.id,
    merchantId: null,
    ...PLATFORM_DEFAULT_COLORS,
    logoId: null,
    createdAt: client.createdAt,
    updatedAt: client.createdAt,
  };
}
