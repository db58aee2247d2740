/**
 * The BR Code a receiving PSP hands out for a cob (Manual de Padrões para Iniciação do Pix, "BR Code"): EMV QRCPS
 * merchant-presented fields in ID-length-value form, with the Pix merchant account template (GUI br.gov.bcb.pix and
 * the location URL, field 26), and a CRC16 over everything up to and including "6304".
 */

function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function plain(value: string, max: number): string {
  return value.normalize('NFD').replace(/[^A-Za-z0-9 ]/g, '').trim().slice(0, max) || 'RECEBEDOR';
}

/** A dynamic BR Code (point of initiation 12) for a cob at `location`; the txid travels in the payload the location serves, so field 62 carries "***". */
export function dynamicBrCode(input: { location: string; amount: string; merchantName: string; city: string }): string {
  const account = field('00', 'br.gov.bcb.pix') + field('25', input.location);
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    field('54', input.amount) +
    field('58', 'BR') +
    field('59', plain(input.merchantName, 25)) +
    field('60', plain(input.city, 15)) +
    field('62', field('05', '***')) +
    '6304';
  return body + crc16(body);
}
