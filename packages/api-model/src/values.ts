/**
 * Rules for values many routes share (dates, currencies, web URLs), defined once: the gateway refuses at the edge
 * what the services refuse when called directly over gRPC, with the same words.
 */

/**
 * The dates (YYYY-MM-DD) a body or query may name: before or after them is a typing slip (0001-01-01, 9999-12-31),
 * not a date anyone means. Fields narrow it (a birthdate is in the past, a due date not before today).
 */
export const DATE_RANGE = { earliest: '1900-01-01', latest: '2099-12-31' } as const;
/** The instants (RFC 3339 date-times) a body or query may name, for the same reason. */
export const DATE_TIME_RANGE = { earliest: '1970-01-01T00:00:00.000Z', latest: '2099-12-31T23:59:59.999Z' } as const;

export const DATE_MESSAGE = 'must be a date (YYYY-MM-DD)';
export const DATE_RANGE_MESSAGE = `must be a date from ${DATE_RANGE.earliest} to ${DATE_RANGE.latest}`;
export const DATE_TIME_RANGE_MESSAGE = `must be an instant from ${DATE_TIME_RANGE.earliest.slice(0, 10)} to ${DATE_TIME_RANGE.latest.slice(0, 10)}`;

/** A real calendar date written YYYY-MM-DD (not 2026-02-30, not 0000-00-00). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A calendar date within DATE_RANGE (YYYY-MM-DD compares as text). */
export function isDateInRange(value: string): boolean {
  return value >= DATE_RANGE.earliest && value <= DATE_RANGE.latest;
}

/** An instant within DATE_TIME_RANGE. */
export function isInstantInRange(value: Date): boolean {
  const time = value.getTime();
  return !Number.isNaN(time) && time >= Date.parse(DATE_TIME_RANGE.earliest) && time <= Date.parse(DATE_TIME_RANGE.latest);
}

/** Today's date in Brasília (YYYY-MM-DD), where boletos fall due and the platform's days begin. */
export function brazilDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The currencies the platform takes: ISO 4217's codes of currencies in circulation. Not the codes for no currency,
 * testing, precious metals, funds or units of account (XXX, XTS, XAU, XDR...), nor ones withdrawn (HRK, SLL, ZWL).
 * A fixed list rather than the runtime's, which changes with its ICU version.
 */
export const CURRENCY_CODES = [
  'AED', 'AFN', 'ALL', 'AMD', 'ANG', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BHD', 'BIF', 'BMD', 'BND',
  'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHF', 'CLP', 'CNY', 'COP', 'CRC', 'CUP', 'CVE', 'CZK', 'DJF',
  'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GNF', 'GTQ', 'GYD', 'HKD',
  'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IQD', 'IRR', 'ISK', 'JMD', 'JOD', 'JPY', 'KES', 'KGS', 'KHR', 'KMF', 'KPW', 'KRW',
  'KWD', 'KYD', 'KZT', 'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'LYD', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR',
  'MVR', 'MWK', 'MXN', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'OMR', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN',
  'PYG', 'QAR', 'RON', 'RSD', 'RUB', 'RWF', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN',
  'SVC', 'SYP', 'SZL', 'THB', 'TJS', 'TMT', 'TND', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'UGX', 'USD', 'UYU', 'UZS', 'VED',
  'VES', 'VND', 'VUV', 'WST', 'XAF', 'XCD', 'XCG', 'XOF', 'XPF', 'YER', 'ZAR', 'ZMW', 'ZWG',
] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

const CURRENCIES: ReadonlySet<string> = new Set(CURRENCY_CODES);

export const CURRENCY_MESSAGE = 'must be an ISO 4217 code of a currency in circulation (such as BRL)';

/** Whether the platform takes this currency (upper case, as stored). */
export function isCurrencyCode(code: string): code is CurrencyCode {
  return CURRENCIES.has(code);
}

export const WEB_URL_MESSAGE = 'must be an http or https URL without a user name or password';

/**
 * An http(s) URL with a host and no credentials: a URL shown to buyers or called by the platform never carries a
 * user name or password (they would be shown, stored and logged with it).
 */
export function isWebUrl(value: string, maxLength: number): boolean {
  if (value.length > maxLength) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
