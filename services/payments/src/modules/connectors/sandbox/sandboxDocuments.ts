/**
 * Pix and boleto payment documents in their real formats, so that what the sandbox returns can be pasted into
 * a banking app's parser: the Pix BR Code (EMV QR payload with CRC16) and the FEBRABAN boleto bar code and
 * digitable line with their check digits.
 */

function emvField(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as the BR Code asks. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function formatMinorUnits(amount: number): string {
  const units = Math.trunc(amount / 100);
  return `${units}.${String(amount % 100).padStart(2, '0')}`;
}

/** ASCII letters, digits and spaces only, cut to the field's size. */
function emvText(value: string, max: number): string {
  const ascii = value.normalize('NFD').replace(/[^A-Za-z0-9 ]/g, '').trim();
  return (ascii || 'SANDBOX').slice(0, max);
}

export function pixPayload(input: { location: string; amount: number; merchantName: string; city: string; txid: string }): string {
  const account = emvField('00', 'br.gov.bcb.pix') + emvField('25', input.location.slice(0, 77));
  const body =
    emvField('00', '01') +
    emvField('01', '12') +
    emvField('26', account) +
    emvField('52', '0000') +
    emvField('53', '986') +
    emvField('54', formatMinorUnits(input.amount)) +
    emvField('58', 'BR') +
    emvField('59', emvText(input.merchantName, 25)) +
    emvField('60', emvText(input.city, 15)) +
    emvField('62', emvField('05', input.txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25))) +
    '6304';
  return body + crc16(body);
}

function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? Math.trunc(product / 10) + (product % 10) : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

function mod11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

const FACTOR_BASE = Date.UTC(1997, 9, 7);

/** Days since 1997-10-07, restarting at 1000 after 9999 (2025-02-22 is factor 1000 again). */
export function dueDateFactor(date: string): string {
  const days = Math.round((Date.parse(`${date}T00:00:00Z`) - FACTOR_BASE) / 86_400_000);
  const factor = days <= 9999 ? days : ((days - 10_000) % 9000) + 1000;
  return String(factor).padStart(4, '0');
}

export function boletoDocuments(input: { bankCode: string; amount: number; dueDate: string; freeField: string }): { barcode: string; digitableLine: string } {
  const bank = input.bankCode.padStart(3, '0').slice(0, 3);
  const currency = '9';
  const factor = dueDateFactor(input.dueDate);
  const amount = String(input.amount).padStart(10, '0').slice(-10);
  const free = input.freeField.replace(/\D/g, '').padEnd(25, '0').slice(0, 25);
  const withoutDv = bank + currency + factor + amount + free;
  const dv = mod11(withoutDv);
  const barcode = `${bank}${currency}${dv}${factor}${amount}${free}`;
  const field1 = bank + currency + free.slice(0, 5);
  const field2 = free.slice(5, 15);
  const field3 = free.slice(15, 25);
  const digitableLine = `${field1}${mod10(field1)}${field2}${mod10(field2)}${field3}${mod10(field3)}${dv}${factor}${amount}`;
  return { barcode, digitableLine };
}

/** The check digit of a bar code, recomputed: for tests and for validating what a provider sent. */
export function boletoBarcodeValid(barcode: string): boolean {
  if (!/^\d{44}$/.test(barcode)) return false;
  return Number(barcode[4]) === mod11(barcode.slice(0, 4) + barcode.slice(5));
}
