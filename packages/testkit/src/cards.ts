import { randomInt } from 'node:crypto';

function luhnCheckDigit(body: string): string {
  let sum = 0;
  let double = true;
  for (let i = body.length - 1; i >= 0; i--) {
    let d = Number(body[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A fresh Luhn-valid card number starting with `prefix`, so each test's card is its own. */
export function cardNumber(prefix = '411111', length = 16): string {
  let body = prefix;
  while (body.length < length - 1) body += String(randomInt(10));
  return body + luhnCheckDigit(body);
}

/**
 * A Luhn-valid card number ending with the given digits (the SANDBOX provider decides by them): a digit in the
 * middle is chosen to make the check work, so the ending stays what the test asked for.
 */
export function cardNumberEnding(suffix: string | number, prefix = '411111', length = 16): string {
  const ending = String(suffix);
  const middleLength = length - prefix.length - ending.length - 1;
  const middle = Array.from({ length: middleLength }, () => randomInt(10)).join('');
  for (let digit = 0; digit <= 9; digit++) {
    const body = `${prefix}${middle}${digit}${ending}`;
    if (luhnCheckDigit(body.slice(0, -1)) === body.slice(-1)) return body;
  }
  throw new Error(`no valid card number ends with ${ending}`);
}
