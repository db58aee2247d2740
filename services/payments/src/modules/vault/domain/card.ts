/** Card rules with no I/O: number checks, brand from the BIN, expiry. */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'elo' | 'hipercard' | 'diners';

export function digitsOnly(value: string): string {
  return value.replace(/[\s-]/g, '');
}

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

type Range = readonly [number, number];
const range = (from: number, to = from): Range => [from, to];

// Elo and Hipercard issue inside ranges that look like Visa, Mastercard or Discover, so they are matched first.
const ELO_BINS: Range[] = [
  range(401178, 401179), range(431274), range(438935), range(451416), range(457393), range(457631, 457632),
  range(504175), range(506699, 506778), range(509000, 509999), range(627780), range(636297), range(636368),
  range(650031, 650033), range(650035, 650051), range(650405, 650439), range(650485, 650538), range(650541, 650598),
  range(650700, 650718), range(650720, 650727), range(650901, 650978), range(651652, 651679), range(655000, 655019),
  range(655021, 655058),
];
const HIPERCARD_BINS: Range[] = [range(606282), range(384100), range(384140), range(384160), range(637095), range(637568), range(637599), range(637609), range(637612)];

// Mastercard BINs outside 51-55 and 2221-2720 that providers' documented test cards use: Mercado Pago's
// Brazilian test Mastercard 5031 4332 1540 6351 (Mercado Pago Developers, "Cartões de teste").
const MASTERCARD_EXTRA_BINS: Range[] = [range(503143)];

const inRanges = (bin: number, ranges: Range[]) => ranges.some(([from, to]) => bin >= from && bin <= to);

export function brandOf(number: string): CardBrand | undefined {
  if (number.length < 6) return undefined;
  const bin6 = Number(number.slice(0, 6));
  const bin4 = Number(number.slice(0, 4));
  const bin3 = Number(number.slice(0, 3));
  const bin2 = Number(number.slice(0, 2));
  if (inRanges(bin6, ELO_BINS)) return 'elo';
  if (inRanges(bin6, HIPERCARD_BINS)) return 'hipercard';
  if (bin2 === 34 || bin2 === 37) return 'amex';
  if ((bin3 >= 300 && bin3 <= 305) || bin4 === 3095 || bin2 === 36 || bin2 === 38 || bin2 === 39) return 'diners';
  if ((bin2 >= 51 && bin2 <= 55) || (bin4 >= 2221 && bin4 <= 2720) || inRanges(bin6, MASTERCARD_EXTRA_BINS)) return 'mastercard';
  if (number.startsWith('4')) return 'visa';
  return undefined;
}

/** Parses `MM/YYYY` (also `MM/YY`); undefined when malformed. */
export function parseExpiration(value: string): { month: number; year: number } | undefined {
  const match = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(value.trim());
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return undefined;
  return { month, year };
}

/** A card is valid through the last day of its expiration month. */
export function isExpired(expiration: { month: number; year: number }, now: Date): boolean {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return expiration.year < y || (expiration.year === y && expiration.month < m);
}

/** Four digits for amex, three for the other brands; either when the brand is not known. */
export function cvvValid(cvv: string, brand: CardBrand | undefined): boolean {
  if (brand === undefined) return /^\d{3,4}$/.test(cvv);
  return brand === 'amex' ? /^\d{4}$/.test(cvv) : /^\d{3}$/.test(cvv);
}

/** A saved card as the vault shows it: the number stays sealed in the store and never reaches this shape. */
export interface SavedCard {
  id: string;
  clientId: string;
  customerId: string | null;
  /** The merchant whose provider verified the card when it was saved. */
  merchantId: string | null;
  status: string;
  brand: CardBrand;
  holderName: string;
  first6: string;
  last4: string;
  expirationMonth: number;
  expirationYear: number;
  fingerprint: string;
  cvvChecked: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A single-use card token as the vault answers it: its id and when it expires (the card stays sealed in the store). */
export interface IssuedToken {
  id: string;
  expiresAt: Date;
}

/** A card opened for one authorization: the number and CVV live only in memory, for the length of that request. */
export interface CardData {
  cardId?: string;
  tokenId?: string;
  number: string;
  cvv?: string;
  expirationMonth: number;
  expirationYear: number;
  holderName: string;
  brand: CardBrand;
  first6: string;
  last4: string;
  fingerprint: string;
}
