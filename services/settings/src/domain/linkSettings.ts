import type { FieldViolation } from '@platform/kit';
import { invalid } from './validation';

export const COLOR_FIELDS = ['mainColor', 'secondaryColor', 'attentionColor', 'errorColor', 'successColor', 'backgroundColor'] as const;
export const LINK_SETTINGS_FIELDS = [...COLOR_FIELDS, 'companyUrl'] as const;
export type LinkSettingsField = (typeof LINK_SETTINGS_FIELDS)[number];

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
const MAX_URL_LENGTH = 2048;

export function isColor(value: string): boolean {
  return COLOR.test(value);
}

export function isWebUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
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
      if (!isWebUrl(value)) problems.push({ field, message: 'must be an http or https URL' });
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
