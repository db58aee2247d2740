import { randomInt } from 'node:crypto';
import type { CardData } from '../../src/app/ports';
import { luhnValid } from '../../src/domain/card';

/**
 * A valid (Luhn) Visa number ending with the given digits: one digit in the middle is chosen to make the check
 * work, so the last digits stay what the SANDBOX outcome table reads.
 */
export function cardNumberEnding(suffix: string, prefix = '411111'): string {
  const middleLength = 16 - prefix.length - suffix.length - 1;
  const middle = Array.from({ length: middleLength }, () => randomInt(10)).join('');
  for (let digit = 0; digit <= 9; digit++) {
    const number = `${prefix}${middle}${digit}${suffix}`;
    if (luhnValid(number)) return number;
  }
  throw new Error(`no valid card number ends with ${suffix}`);
}

export function cardData(number: string, cvv?: string): CardData {
  return {
    number,
    ...(cvv !== undefined ? { cvv } : {}),
    expirationMonth: 12,
    expirationYear: new Date().getUTCFullYear() + 3,
    holderName: 'Maria Souza',
    brand: 'visa',
    first6: number.slice(0, 6),
    last4: number.slice(-4),
    fingerprint: 'fp',
  };
}
