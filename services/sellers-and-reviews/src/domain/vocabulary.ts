/** The translation of a provider's raw field paths into the fields of this service, with what a client needs to fill them. */

export type FieldType = 'string' | 'enum' | 'date' | 'number';

export interface LocalizedText {
  'pt-br': string;
  en: string;
}

export interface RequestedField {
  path: string;
  type: FieldType;
  required: true;
  label: LocalizedText;
  providerField: string;
  format?: LocalizedText;
  pattern?: string;
  allowedValues?: string[];
  note?: LocalizedText;
  unmapped?: true;
}

type Entry = Omit<RequestedField, 'providerField' | 'required' | 'unmapped'>;

const DATE_FORMAT: LocalizedText = { 'pt-br': 'AAAA-MM-DD', en: 'YYYY-MM-DD' };

/** The SANDBOX provider's vocabulary. */
export const SANDBOX_VOCABULARY: Readonly<Record<string, Entry>> = {
  'legal_representative.name': {
    path: 'owner.name',
    type: 'string',
    label: { 'pt-br': 'Nome do representante legal', en: 'Legal representative name' },
    pattern: '^.{2,200}$',
  },
  'legal_representative.birth_date': {
    path: 'owner.birthdate',
    type: 'date',
    label: { 'pt-br': 'Data de nascimento do representante legal', en: 'Legal representative birth date' },
    format: DATE_FORMAT,
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  },
  'legal_representative.email': {
    path: 'owner.email',
    type: 'string',
    label: { 'pt-br': 'E-mail do representante legal', en: 'Legal representative e-mail' },
    pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
  },
  'address.zip_code': {
    path: 'owner.address.zipCode',
    type: 'string',
    label: { 'pt-br': 'CEP', en: 'ZIP code' },
    format: { 'pt-br': '8 dígitos, sem hífen', en: '8 digits, no hyphen' },
    pattern: '^\\d{8}$',
  },
  'company.legal_name': {
    path: 'business.corporateReason',
    type: 'string',
    label: { 'pt-br': 'Razão social', en: 'Corporate name' },
    pattern: '^.{2,200}$',
  },
  'company.annual_revenue': {
    path: 'business.annualRevenue',
    type: 'number',
    label: { 'pt-br': 'Faturamento anual', en: 'Annual revenue' },
    format: { 'pt-br': 'Número com até 2 casas decimais', en: 'Number with up to 2 decimal places' },
    pattern: '^\\d+(\\.\\d{1,2})?$',
  },
  'bank_account.type': {
    path: 'bankAccount.type',
    type: 'enum',
    label: { 'pt-br': 'Tipo de conta', en: 'Account type' },
    pattern: '^.+$',
    allowedValues: ['conta_corrente', 'conta_poupanca', 'conta_pagamento'],
    note: { 'pt-br': 'Valores fora da lista são aceitos e repassados ao provedor', en: 'Values outside the list are accepted and passed on to the provider' },
  },
};

/** Each raw path translated; one with no translation keeps its raw path and is `unmapped`. */
export function translateRawFields(raw: readonly string[], vocabulary: Readonly<Record<string, Entry>> = SANDBOX_VOCABULARY): RequestedField[] {
  return raw.map((providerField) => {
    const entry = vocabulary[providerField];
    if (!entry) {
      return { path: providerField, type: 'string', required: true, label: { 'pt-br': providerField, en: providerField }, providerField, unmapped: true };
    }
    return { ...entry, required: true, providerField };
  });
}
