/**
 * Stripe's test mode, as its documentation lists it ("Testing": test card numbers, "Declined payments";
 * "Error codes"; "Decline codes"). The simulator answers each documented test card as Stripe's test mode does.
 */

export interface StripeCardOutcome {
  /** `error.code` of the card_error (card_declined, expired_card, incorrect_cvc, processing_error, ...). */
  code: string;
  /** `error.decline_code`, when Stripe gives one. */
  declineCode?: string;
  /** `error.message`, as Stripe writes it. */
  message: string;
}

export interface StripeTestCard {
  brand: 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay';
  funding: 'credit' | 'debit' | 'prepaid';
  /** Absent: the payment succeeds. */
  decline?: StripeCardOutcome;
  /** The card asks for 3D Secure authentication (the PaymentIntent goes to requires_action). */
  requiresAction?: boolean;
  /** `cvc_check` of the charge when a CVC is sent ("fail" declines with incorrect_cvc). */
  cvcCheck?: 'pass' | 'fail';
}

const declined = (declineCode: string, message = 'Your card was declined.'): StripeCardOutcome => ({ code: 'card_declined', declineCode, message });

/** "Testing" > "Cards by brand" and "Declined payments" (test card numbers, brand, funding, outcome). */
export const STRIPE_TEST_CARDS: Readonly<Record<string, StripeTestCard>> = {
  '4242424242424242': { brand: 'visa', funding: 'credit' },
  '4000056655665556': { brand: 'visa', funding: 'debit' },
  '5555555555554444': { brand: 'mastercard', funding: 'credit' },
  '2223003122003222': { brand: 'mastercard', funding: 'credit' },
  '5200828282828210': { brand: 'mastercard', funding: 'debit' },
  '5105105105105100': { brand: 'mastercard', funding: 'prepaid' },
  '378282246310005': { brand: 'amex', funding: 'credit' },
  '371449635398431': { brand: 'amex', funding: 'credit' },
  '6011111111111117': { brand: 'discover', funding: 'credit' },
  '6011000990139424': { brand: 'discover', funding: 'credit' },
  '6011981111111113': { brand: 'discover', funding: 'debit' },
  '3056930009020004': { brand: 'diners', funding: 'credit' },
  '36227206271667': { brand: 'diners', funding: 'credit' },
  '3566002020360505': { brand: 'jcb', funding: 'credit' },
  '6200000000000005': { brand: 'unionpay', funding: 'credit' },
  // "Declined payments".
  '4000000000000002': { brand: 'visa', funding: 'credit', decline: declined('generic_decline') },
  '4000000000009995': { brand: 'visa', funding: 'credit', decline: declined('insufficient_funds', 'Your card has insufficient funds.') },
  '4000000000009987': { brand: 'visa', funding: 'credit', decline: declined('lost_card') },
  '4000000000009979': { brand: 'visa', funding: 'credit', decline: declined('stolen_card') },
  '4000000000000069': { brand: 'visa', funding: 'credit', decline: { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' } },
  '4000000000000127': { brand: 'visa', funding: 'credit', decline: { code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: "Your card's security code is incorrect." } },
  '4000000000000119': {
    brand: 'visa',
    funding: 'credit',
    decline: { code: 'processing_error', declineCode: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
  },
  '4000000000006975': { brand: 'visa', funding: 'credit', decline: declined('card_velocity_exceeded') },
  '4000000000000101': { brand: 'visa', funding: 'credit', cvcCheck: 'fail' },
  // "Fraud prevention": Radar blocks it (outcome type "blocked").
  '4100000000000019': { brand: 'visa', funding: 'credit', decline: declined('fraudulent') },
  // "3D Secure authentication": "Authentication required" on every payment.
  '4000002760003184': { brand: 'visa', funding: 'credit', requiresAction: true },
  '4000002500003155': { brand: 'visa', funding: 'credit', requiresAction: true },
};

/** "Error codes": a number that fails the Luhn check. */
export const STRIPE_INCORRECT_NUMBER: StripeCardOutcome = { code: 'incorrect_number', message: 'Your card number is incorrect.' };
/** "Error codes": an expiry date in the past. */
export const STRIPE_INVALID_EXPIRY_YEAR: StripeCardOutcome = { code: 'invalid_expiry_year', message: "Your card's expiration year is invalid." };
export const STRIPE_INVALID_EXPIRY_MONTH: StripeCardOutcome = { code: 'invalid_expiry_month', message: "Your card's expiration month is invalid." };
/** "Error codes": a CVC that is not 3 or 4 digits. */
export const STRIPE_INVALID_CVC: StripeCardOutcome = { code: 'invalid_cvc', message: "Your card's security code is invalid." };
/** `error_on_requires_action=true` and a card that needs authentication. */
export const STRIPE_AUTHENTICATION_REQUIRED: StripeCardOutcome = {
  code: 'card_declined',
  declineCode: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

/**
 * "Raw card data APIs": an account without access to them (the default for accounts that have not shown
 * Stripe their PCI compliance) is refused when it sends card numbers.
 */
export const STRIPE_RAW_CARD_DATA_REFUSED =
  'Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing. To enable raw card data APIs in test mode, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.';

/** A webhook signature is `v1=HMAC-SHA256(secret, "{t}.{payload}")` ("Check the webhook signatures"). */
export const STRIPE_SIGNATURE_SCHEME = 'v1';

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand of a number Stripe's test list does not name, by its prefix. */
export function brandOfNumber(number: string): StripeTestCard['brand'] {
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  if (/^3(0[0-5]|[689])/.test(number)) return 'diners';
  if (/^35/.test(number)) return 'jcb';
  if (/^62/.test(number)) return 'unionpay';
  return 'visa';
}
