/** Brazilian tax ids: CPF (natural persons, 11 digits) and CNPJ (legal entities, 14 digits), with their check digits. */

export function onlyDigits(value: string): string {
  return value.replace(/\D/g, '');
}

function checkDigit(digits: number[], weights: number[]): number {
  const sum = digits.reduce((acc, d, i) => acc + d * weights[i]!, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A CPF with or without punctuation: 11 digits, not all the same, both check digits right. */
export function isValidCpf(value: string): boolean {
  const raw = onlyDigits(value);
  if (raw.length !== 11 || /^(\d)\1{10}$/.test(raw)) return false;
  const digits = [...raw].map(Number);
  const first = checkDigit(digits.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return digits[9] === first && digits[10] === second;
}

/** A CNPJ with or without punctuation: 14 digits, not all the same, both check digits right. */
export function isValidCnpj(value: string): boolean {
  const raw = onlyDigits(value);
  if (raw.length !== 14 || /^(\d)\1{13}$/.test(raw)) return false;
  const digits = [...raw].map(Number);
  const first = checkDigit(digits.slice(0, 12), [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits.slice(0, 13), [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return digits[12] === first && digits[13] === second;
}

/** Whether a document of this type has the right check digits; other types (passport...) are not checked. */
export function documentIsValid(type: string, number: string): boolean {
  const t = type.toLowerCase();
  if (t === 'cpf') return isValidCpf(number);
  if (t === 'cnpj') return isValidCnpj(number);
  return number.trim().length > 0;
}
