/**
 * Checks the BR Code a bank answers for a cob (`pixCopiaECola`) before a payer is shown it: the Central Bank's
 * "Manual de Padrões para Iniciação do Pix" (BR Code section) over EMV QRCPS-MPM. Every field is ID (2 digits),
 * length (2 digits) and value; the payload ends in field 63 whose value is the CRC16 of everything before it,
 * "6304" included.
 */

/** CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR (check value of "123456789": 29B1). */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The fields of a TLV string, in order; throws where a length runs past the end or is not two digits. */
export function tlvFields(text: string): Array<{ id: string; value: string }> {
  const fields: Array<{ id: string; value: string }> = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const lengthText = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(lengthText)) throw new Error(`field at ${at} has no ID and length`);
    const length = Number(lengthText);
    if (at + 4 + length > text.length) throw new Error(`field ${id} runs past the end`);
    fields.push({ id, value: text.slice(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  return fields;
}

export interface BrCodeExpectation {
  /** The amount the cob was made for, as the API writes it ("10.00"); field 54 must match when present. */
  amount: string;
  /** The cob's location; field 26-25 must match when both are present. */
  location?: string;
}

/**
 * The problems of a BR Code, empty when it is sound: payload format 01, the Pix merchant account (GUI
 * br.gov.bcb.pix with a location or a key), category 0000, currency 986, country BR, merchant name and city,
 * the amount, and the CRC last and correct.
 */
export function brCodeProblems(code: string, expected: BrCodeExpectation): string[] {
  let fields: Array<{ id: string; value: string }>;
  try {
    fields = tlvFields(code);
  } catch (error) {
    return [`not a TLV string: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  const byId = new Map(fields.map((f) => [f.id, f.value]));
  if (fields[0]?.id !== '00' || fields[0].value !== '01') problems.push('field 00 (payload format) must come first and be 01');
  const account = byId.get('26');
  if (account === undefined) {
    problems.push('field 26 (Pix merchant account) is missing');
  } else {
    try {
      const inner = new Map(tlvFields(account).map((f) => [f.id, f.value]));
      if (inner.get('00')?.toLowerCase() !== 'br.gov.bcb.pix') problems.push('field 26-00 (GUI) must be br.gov.bcb.pix');
      const location = inner.get('25');
      if (location === undefined && inner.get('01') === undefined) problems.push('field 26 has neither a location (25) nor a key (01)');
      if (location !== undefined && expected.location !== undefined && location !== expected.location) problems.push('field 26-25 is not the cob\'s location');
    } catch {
      problems.push('field 26 is not a TLV string');
    }
  }
  if (byId.get('52') === undefined || !/^\d{4}$/.test(byId.get('52')!)) problems.push('field 52 (merchant category) must be 4 digits');
  if (byId.get('53') !== '986') problems.push('field 53 (currency) must be 986');
  const amount = byId.get('54');
  if (amount !== undefined && amount !== expected.amount && Number(amount) !== Number(expected.amount)) problems.push('field 54 (amount) is not the cob\'s');
  if (byId.get('58') !== 'BR') problems.push('field 58 (country) must be BR');
  const name = byId.get('59');
  if (!name || name.length > 25) problems.push('field 59 (merchant name) must have 1 to 25 characters');
  const city = byId.get('60');
  if (!city || city.length > 15) problems.push('field 60 (merchant city) must have 1 to 15 characters');
  const last = fields.at(-1);
  if (last?.id !== '63' || !/^[0-9A-F]{4}$/i.test(last.value)) {
    problems.push('field 63 (CRC16) must be last, with 4 hex digits');
  } else if (crc16(code.slice(0, -4)).toUpperCase() !== last.value.toUpperCase()) {
    problems.push('field 63 (CRC16) does not match the payload');
  }
  return problems;
}
