import { ISSUER_COUNTRY_RANGES } from './issuerCountryRanges';

/** The issuer country of a card, from its first six digits, in an offline table (see issuerCountryRanges.ts). */

interface CountryRange {
  from: number;
  to: number;
  country: string;
}

const ENTRY = /^(\d{6})(?:-(\d{6}))?([A-Z]{2})$/;

function parseRanges(chunks: readonly string[]): CountryRange[] {
  const ranges: CountryRange[] = [];
  for (const entry of chunks.join('').split(' ')) {
    if (entry === '') continue;
    const match = ENTRY.exec(entry);
    if (!match) throw new Error(`malformed issuer country range ${entry}`);
    const from = Number(match[1]);
    ranges.push({ from, to: match[2] ? Number(match[2]) : from, country: match[3]! });
  }
  ranges.sort((a, b) => a.from - b.from);
  return ranges;
}

const RANGES = parseRanges(ISSUER_COUNTRY_RANGES);

/** ISO 3166-1 alpha-2 country of the card's issuer, or undefined when the BIN is not in the table. */
export function issuerCountryOf(first6: string | undefined): string | undefined {
  if (!first6 || !/^\d{6}$/.test(first6)) return undefined;
  const bin = Number(first6);
  let low = 0;
  let high = RANGES.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = RANGES[mid]!;
    if (bin < range.from) high = mid - 1;
    else if (bin > range.to) low = mid + 1;
    else return range.country;
  }
  return undefined;
}
