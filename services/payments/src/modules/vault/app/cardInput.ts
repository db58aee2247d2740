import { errors, type AppError, type FieldViolation } from '@platform/kit';
import { brandOf, cvvValid, digitsOnly, isExpired, luhnValid, parseExpiration, type CardBrand } from '../domain/card';

/** A card as typed by a buyer: the number and CVV are checked here and never copied into a message. */
export interface CardInput {
  cardHolderName: string;
  cardNumber: string;
  cardCvv: string;
  cardExpirationDate: string;
}

export interface ValidCard {
  number: string;
  cvv: string;
  holderName: string;
  expirationMonth: number;
  expirationYear: number;
  brand: CardBrand;
  first6: string;
  last4: string;
}

/** How far ahead an expiration date may be before it is taken as a typing error. */
const MAX_YEARS_AHEAD = 20;

interface Inspection {
  card?: ValidCard;
  violations: FieldViolation[];
  /** The number is present but not a card number of a supported brand. */
  numberInvalid: boolean;
  expired: boolean;
}

function inspect(input: Partial<CardInput> | undefined, now: Date): Inspection {
  const violations: FieldViolation[] = [];
  let numberInvalid = false;
  let expired = false;

  const number = digitsOnly(input?.cardNumber ?? '');
  let brand: CardBrand | undefined;
  if (number === '') {
    violations.push({ field: 'cardNumber', message: 'is required' });
  } else if (!/^\d{12,19}$/.test(number)) {
    numberInvalid = true;
    violations.push({ field: 'cardNumber', message: 'must be 12 to 19 digits' });
  } else if (!luhnValid(number)) {
    numberInvalid = true;
    violations.push({ field: 'cardNumber', message: 'is not a valid card number' });
  } else {
    brand = brandOf(number);
    if (!brand) {
      numberInvalid = true;
      violations.push({ field: 'cardNumber', message: 'is not a card of a supported brand' });
    }
  }

  const cvv = (input?.cardCvv ?? '').trim();
  if (cvv === '') violations.push({ field: 'cardCvv', message: 'is required' });
  else if (!cvvValid(cvv, brand)) {
    violations.push({ field: 'cardCvv', message: brand === 'amex' ? 'must be 4 digits' : brand ? 'must be 3 digits' : 'must be 3 or 4 digits' });
  }

  const expiration = parseExpiration(input?.cardExpirationDate ?? '');
  if (!expiration) {
    violations.push({ field: 'cardExpirationDate', message: 'must be a date as MM/YYYY' });
  } else if (isExpired(expiration, now)) {
    expired = true;
    violations.push({ field: 'cardExpirationDate', message: 'is in the past' });
  } else if (expiration.year > now.getUTCFullYear() + MAX_YEARS_AHEAD) {
    violations.push({ field: 'cardExpirationDate', message: `must be at most ${MAX_YEARS_AHEAD} years ahead` });
  }

  const holderName = (input?.cardHolderName ?? '').trim().replace(/\s+/g, ' ');
  if (holderName.length < 2 || holderName.length > 100) {
    violations.push({ field: 'cardHolderName', message: 'must be 2 to 100 characters' });
  }

  if (violations.length > 0 || !brand || !expiration) return { violations, numberInvalid, expired };
  return {
    violations,
    numberInvalid,
    expired,
    card: {
      number,
      cvv,
      holderName,
      expirationMonth: expiration.month,
      expirationYear: expiration.year,
      brand,
      first6: number.slice(0, 6),
      last4: number.slice(-4),
    },
  };
}

/** A card to tokenize: every problem is a validation error naming its field. */
export function parseTokenCard(input: Partial<CardInput> | undefined, now: Date): ValidCard {
  const { card, violations } = inspect(input, now);
  if (!card) throw errors.validation('Invalid card', violations);
  return card;
}

/**
 * A card sent inline with a charge answers like an issuer would: a number that is no card is declined
 * `invalid_number` and a past expiration `expired_card`; a missing or malformed field is a validation error
 * under `fieldPrefix`.
 */
export function parseInlineCard(input: Partial<CardInput> | undefined, now: Date, fieldPrefix: string): ValidCard {
  const { card, violations, numberInvalid, expired } = inspect(input, now);
  if (card) return card;
  if (numberInvalid) throw errors.declined('invalid_number', 'The card number is invalid');
  const malformed = violations.filter((v) => !(expired && v.field === 'cardExpirationDate'));
  if (malformed.length > 0) {
    throw errors.validation('Invalid card', malformed.map((v) => ({ field: `${fieldPrefix}.${v.field}`, message: v.message })));
  }
  throw expiredCard();
}

export function expiredCard(): AppError {
  return errors.declined('expired_card', 'The card is expired');
}
