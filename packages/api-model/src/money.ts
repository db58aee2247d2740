/**
 * Money is an integer number of the currency's minor units (centavos for BRL). `MinorUnits` is a number that went
 * through `minorUnits`, the one place that checks it: code that takes `MinorUnits` cannot be handed a float, a NaN or a
 * number beyond 2^53 by mistake, and arithmetic on amounts (whose result is a plain number) says where it comes back.
 */
declare const minorUnitsBrand: unique symbol;

export type MinorUnits = number & { readonly [minorUnitsBrand]: 'MinorUnits' };

/** The value as an amount of minor units; throws on anything but a safe integer (negative amounts are debits and credits). */
export function minorUnits(value: number): MinorUnits {
  if (!Number.isSafeInteger(value)) throw new RangeError(`an amount must be a whole number of minor units, got ${value}`);
  return value as MinorUnits;
}

