/**
 * The Pix "copia e cola" payload Cielo answers in `Payment.QrCodeString`: an EMV merchant-presented QR code
 * (the Central Bank's BR Code), fields as ID (2 digits) + length (2 digits) + value, closed by field 63 with
 * the CRC16/CCITT-FALSE of everything before it (including "6304").
 */

/** CRC16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final xor. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`BR Code field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Letters, digits and spaces only, without accents, as the BR Code's merchant name and city want them. */
function plain(value: string, max: number): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .slice(0, max)
    .trim();
}

export interface DynamicPixCode {
  /** The location of the charge, without the scheme (field 26, sub-field 25). */
  location: string;
  /** Cents; written in reais with two decimals in field 54. */
  amountInCents: number;
  merchantName: string;
  merchantCity: string;
  /** Field 62, sub-field 05 (the reference label). */
  reference: string;
}

export function dynamicPixCode(code: DynamicPixCode): string {
  const amount = `${Math.floor(code.amountInCents / 100)}.${String(code.amountInCents % 100).padStart(2, '0')}`;
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', 'br.gov.bcb.pix') + field('25', code.location)) +
    field('52', '0000') +
    field('53', '986') +
    field('54', amount) +
    field('58', 'BR') +
    field('59', plain(code.merchantName, 25)) +
    field('60', plain(code.merchantCity, 15)) +
    field('62', field('05', code.reference.slice(0, 25))) +
    '6304';
  return body + crc16(body);
}

/** The top-level fields of a BR Code, in order; undefined when the lengths do not add up. */
export function parseBrCode(payload: string): Array<{ id: string; value: string }> | undefined {
  const fields: Array<{ id: string; value: string }> = [];
  let at = 0;
  while (at < payload.length) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length) || at + 4 + length > payload.length) return undefined;
    fields.push({ id, value: payload.slice(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  return fields;
}

/** True when the payload parses and its field 63 is the CRC of what precedes it. */
export function brCodeValid(payload: string): boolean {
  if (!parseBrCode(payload)) return false;
  const crcAt = payload.length - 4;
  if (payload.slice(crcAt - 4, crcAt) !== '6304') return false;
  return crc16(payload.slice(0, crcAt)) === payload.slice(crcAt);
}
