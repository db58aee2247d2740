/**
 * Adyen's test platform, as its manual documents it ("Test card numbers", "Testing result codes and refusal
 * reasons", "Test authorisation using cardholder name"), for the simulator.
 */

/** Every test card takes this expiry date ("Test card numbers": 03/2030). */
export const ADYEN_TEST_EXPIRY = { month: '03', year: '2030' } as const;
/** The CVC of the test cards (American Express: 7373). */
export const ADYEN_TEST_CVC = '737';
export const ADYEN_TEST_AMEX_CVC = '7373';

/** Documented test card numbers ("Test card numbers"), by brand as Adyen names it in notifications. */
export const ADYEN_TEST_CARDS: Readonly<Record<string, string>> = {
  '4111111111111111': 'visa',
  '4111111145551142': 'visa',
  '4988438843884305': 'visa',
  '4166676667666746': 'visa',
  '4646464646464644': 'visa',
  '4444333322221111': 'visa',
  '5555341244441115': 'mc',
  '2222400070000005': 'mc',
  '5577000055770004': 'mc',
  '5136333333333335': 'mc',
  '5555444433331111': 'mc',
  '5500000000000004': 'mc',
  '370000000000002': 'amex',
  '5066991111111118': 'elo',
  '6062828888666688': 'hipercard',
};

/**
 * "Values for testing refusal reasons": the holderName (or additionalData.RequestedTestAcquirerResponseCode) that
 * forces a result: [refusalReasonCode, refusalReason, resultCode]. APPROVED (1) authorises; PENDING (13) is a
 * `Received` payment whose AUTHORISATION notification comes later.
 */
export const ADYEN_TEST_HOLDER_NAMES: Readonly<Record<string, readonly [number, string, string]>> = {
  UNKNOWN: [0, 'Unknown', 'Error'],
  APPROVED: [1, '', 'Authorised'],
  DECLINED: [2, 'Refused', 'Refused'],
  REFERRAL: [3, 'Referral', 'Refused'],
  ERROR: [4, 'Acquirer Error', 'Error'],
  BLOCK_CARD: [5, 'Blocked Card', 'Refused'],
  CARD_EXPIRED: [6, 'Expired Card', 'Refused'],
  INVALID_AMOUNT: [7, 'Invalid Amount', 'Refused'],
  INVALID_CARD_NUMBER: [8, 'Invalid Card Number', 'Refused'],
  ISSUER_UNAVAILABLE: [9, 'Issuer Unavailable', 'Refused'],
  NOT_SUPPORTED: [10, 'Not supported', 'Refused'],
  NOT_3D_AUTHENTICATED: [11, '3D Not Authenticated', 'Refused'],
  NOT_ENOUGH_BALANCE: [12, 'Not enough balance', 'Refused'],
  PENDING: [13, '', 'Received'],
  ACQUIRER_FRAUD: [14, 'Acquirer Fraud', 'Refused'],
  CANCELLED: [15, 'Cancelled', 'Refused'],
  SHOPPER_CANCELLED: [16, 'Shopper Cancelled', 'Refused'],
  INVALID_PIN: [17, 'Invalid Pin', 'Refused'],
  PIN_TRIES_EXCEEDED: [18, 'Pin tries exceeded', 'Refused'],
  PIN_VALIDATION_NOT_POSSIBLE: [19, 'Pin validation not possible', 'Refused'],
  FRAUD: [20, 'FRAUD', 'Refused'],
  NOT_SUBMITTED: [21, 'Not Submitted', 'Refused'],
  FRAUD_CANCELLED: [22, 'FRAUD-CANCELLED', 'Cancelled'],
  TRANSACTION_NOT_PERMITTED: [23, 'Transaction Not Permitted', 'Refused'],
  CVC_DECLINED: [24, 'CVC Declined', 'Refused'],
  RESTRICTED_CARD: [25, 'Restricted Card', 'Refused'],
  REVOCATION_OF_AUTH: [26, 'Revocation Of Auth', 'Refused'],
  DECLINED_NON_GENERIC: [27, 'Declined Non Generic', 'Refused'],
  WITHDRAWAL_AMOUNT_EXCEEDED: [28, 'Withdrawal amount exceeded', 'Refused'],
  WITHDRAWAL_COUNT_EXCEEDED: [29, 'Withdrawal count exceeded', 'Refused'],
  ISSUER_SUSPECTED_FRAUD: [31, 'Issuer Suspected Fraud', 'Refused'],
  AVS_DECLINED: [32, 'AVS Declined', 'Refused'],
  PIN_REQUIRED: [33, 'Card requires online pin', 'Refused'],
  NO_CHECKING_ACCOUNT_AVAILABLE_ON_CARD: [34, 'No checking account available on Card', 'Refused'],
  NO_SAVINGS_ACCOUNT_AVAILABLE_ON_CARD: [35, 'No savings account available on Card', 'Refused'],
  MOBILE_PIN_REQUIRED: [36, 'Mobile pin required', 'Refused'],
  CONTACTLESS_FALLBACK: [37, 'Contactless fallback', 'Refused'],
  AUTHENTICATION_REQUIRED: [38, 'Authentication required', 'Refused'],
  RREQ_NOT_RECEIVED_FROM_DS: [39, 'RReq not received from DS', 'Refused'],
  CURRENT_AID_IN_PENALTY_BOX: [40, 'Current AID is in Penalty Box', 'Refused'],
  CVM_REQUIRED_RESTART_PAYMENT: [41, 'CVM Required Restart Payment', 'Refused'],
  '3DS_AUTHENTICATION_ERROR': [42, '3DS Authentication Error', 'Refused'],
  TRANSACTION_BLOCKED_BY_ADYEN_TO_PREVENT_EXCESSIVE_RETRY_FEES: [46, 'Transaction blocked by Adyen to prevent excessive retry fees', 'Refused'],
};

/**
 * "Test failed modifications": holder names whose payment's later modification fails after Adyen took it
 * (a CAPTURE_FAILED or REFUND_FAILED notification after the successful CAPTURE or REFUND one).
 */
export const ADYEN_CAPTURE_FAILED_HOLDER = 'capture failed';
export const ADYEN_REFUND_FAILED_HOLDER = 'refund failed';

/** The forced result of a holder name: the documented name, or `[name] : [scheme code] : [raw reason]`. */
export function forcedResult(holderName: string | undefined): readonly [number, string, string] | undefined {
  if (!holderName) return undefined;
  const name = holderName.split(':')[0]!.trim();
  return ADYEN_TEST_HOLDER_NAMES[name];
}
