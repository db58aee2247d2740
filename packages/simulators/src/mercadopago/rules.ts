/**
 * Mercado Pago's sandbox, as its developer documentation publishes it ("Your integrations" > "Test cards",
 * Brazil): the test cards, and the cardholder names that force each payment outcome. A payment's `status` and
 * `status_detail` come from the manual's "Payment creation results" / "Get payment status" table.
 */

/** "Test cards" (MLB): number, security code and expiration (11/30). */
export const MERCADOPAGO_TEST_CARDS = {
  /** Credit card, Mastercard. */
  mastercard: { number: '5031433215406351', securityCode: '123', expirationMonth: 11, expirationYear: 2030, paymentMethodId: 'master' },
  /** Credit card, Visa. */
  visa: { number: '4235647728025682', securityCode: '123', expirationMonth: 11, expirationYear: 2030, paymentMethodId: 'visa' },
  /** Credit card, American Express (a four digit security code). */
  amex: { number: '375365153556885', securityCode: '1234', expirationMonth: 11, expirationYear: 2030, paymentMethodId: 'amex' },
  /** Debit card, Elo. */
  eloDebit: { number: '5067766783888311', securityCode: '123', expirationMonth: 11, expirationYear: 2030, paymentMethodId: 'debelo' },
} as const;

/** The identity document the "Test cards" table gives APRO and OTHE in Brazil: (CPF) 12345678909. */
export const MERCADOPAGO_TEST_CPF = '12345678909';

export interface CardholderOutcome {
  /** The "Test cards" table's description of the scenario. */
  scenario: string;
  status: 'approved' | 'in_process' | 'rejected';
  statusDetail: string;
}

/**
 * "To test different payment results, fill in the desired status in the cardholder's name": the name's first
 * word decides. A name that is none of these is approved, as APRO is (the sandbox's other test data); TEST
 * ("used to apply amount rules") is approved here too.
 */
export const MERCADOPAGO_CARDHOLDER_OUTCOMES: Readonly<Record<string, CardholderOutcome>> = {
  APRO: { scenario: 'Approved payment', status: 'approved', statusDetail: 'accredited' },
  OTHE: { scenario: 'Declined for general error', status: 'rejected', statusDetail: 'cc_rejected_other_reason' },
  CONT: { scenario: 'Pending payment', status: 'in_process', statusDetail: 'pending_contingency' },
  CALL: { scenario: 'Declined with validation to authorize', status: 'rejected', statusDetail: 'cc_rejected_call_for_authorize' },
  FUND: { scenario: 'Declined for insufficient amount', status: 'rejected', statusDetail: 'cc_rejected_insufficient_amount' },
  SECU: { scenario: 'Declined for invalid security code', status: 'rejected', statusDetail: 'cc_rejected_bad_filled_security_code' },
  EXPI: { scenario: 'Declined due to due date issue', status: 'rejected', statusDetail: 'cc_rejected_bad_filled_date' },
  FORM: { scenario: 'Declined due to form error', status: 'rejected', statusDetail: 'cc_rejected_bad_filled_other' },
  CARD: { scenario: 'Rejected for missing card_number', status: 'rejected', statusDetail: 'cc_rejected_bad_filled_card_number' },
  INST: { scenario: 'Rejected for invalid installments', status: 'rejected', statusDetail: 'cc_rejected_invalid_installments' },
  DUPL: { scenario: 'Rejected for duplicate payment', status: 'rejected', statusDetail: 'cc_rejected_duplicated_payment' },
  LOCK: { scenario: 'Rejected for disabled card', status: 'rejected', statusDetail: 'cc_rejected_card_disabled' },
  CTNA: { scenario: 'Rejected for non-permitted card type', status: 'rejected', statusDetail: 'cc_rejected_card_type_not_allowed' },
  ATTE: { scenario: 'Rejected due to exceeded PIN attempts', status: 'rejected', statusDetail: 'cc_rejected_max_attempts' },
  BLAC: { scenario: 'Rejected for being on the blacklist', status: 'rejected', statusDetail: 'cc_rejected_blacklist' },
  UNSU: { scenario: 'Not supported', status: 'rejected', statusDetail: 'cc_rejected_other_reason' },
  TEST: { scenario: 'Used to apply amount rules', status: 'approved', statusDetail: 'accredited' },
};

/** The outcome a cardholder name forces (its first word, in capitals), APRO's when it names none. */
export function cardholderOutcome(name: string): CardholderOutcome & { code: string } {
  const code = name.trim().split(/\s+/)[0]?.toUpperCase() ?? '';
  const outcome = MERCADOPAGO_CARDHOLDER_OUTCOMES[code];
  return outcome ? { code, ...outcome } : { code: 'APRO', ...MERCADOPAGO_CARDHOLDER_OUTCOMES.APRO! };
}

/** The card payment methods of Brazil (`payment_method_id`) this simulator takes, with their payment type. */
export const MERCADOPAGO_CARD_METHODS: Readonly<Record<string, 'credit_card' | 'debit_card'>> = {
  visa: 'credit_card',
  master: 'credit_card',
  amex: 'credit_card',
  elo: 'credit_card',
  hipercard: 'credit_card',
  debvisa: 'debit_card',
  debmaster: 'debit_card',
  debelo: 'debit_card',
};

/** "Capture authorized payment": an authorization not captured within this many days is cancelled (expired). */
export const MERCADOPAGO_CAPTURE_DAYS = 7;

/** A Pix's `date_of_expiration` must fall between 30 minutes and 30 days from its creation; 24 hours when not given. */
export const MERCADOPAGO_PIX_EXPIRATION = { minMs: 30 * 60_000, maxMs: 30 * 86_400_000, defaultMs: 86_400_000 } as const;
