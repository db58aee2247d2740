/**
 * e.Rede's answers, as its integration manual lists them ("Códigos de retorno": authorization returns,
 * integration returns and cancellation returns). The simulator answers with these exact codes and messages.
 */

/** The card the manual and Rede's own SDK tests use in the sandbox: a Mastercard credit card that is approved. */
export const REDE_APPROVED_CARD = '5448280000000007';
/** The debit card of Rede's SDK tests. */
export const REDE_DEBIT_CARD = '5277696455399733';

/**
 * Card numbers that force an authorization return in this simulator: the prefix followed by the three digits of
 * the return code (4000000000000111 is declined 111, insufficient funds). Rede's sandbox approves its test cards;
 * these numbers are how a test reaches each of the manual's authorization returns.
 */
export const REDE_FORCED_RETURN_PREFIX = '4000000000000';

/** Authorization returns (manual: "Retornos de autorização"). "00" is the approval. */
export const REDE_AUTHORIZATION_RETURNS: Readonly<Record<string, string>> = {
  '00': 'Success.',
  '101': 'Unauthorized. Problems on the card, contact the issuer.',
  '102': 'Unauthorized. Check the situation of the store with the issuer.',
  '103': 'Unauthorized. Please try again.',
  '104': 'Unauthorized. Please try again.',
  '105': 'Unauthorized. Restricted card.',
  '106': 'Error in issuer processing. Please try again.',
  '107': 'Unauthorized. Please try again.',
  '108': 'Unauthorized. Value not allowed for this type of card.',
  '109': 'Unauthorized. Nonexistent card.',
  '110': 'Unauthorized. Transaction type not allowed for this card.',
  '111': 'Unauthorized. Insufficient funds.',
  '112': 'Unauthorized. Expiry date expired.',
  '113': 'Unauthorized. Identified moderate risk by the issuer.',
  '114': 'Unauthorized. The card does not belong to the payment network.',
  '115': 'Unauthorized. Exceeded the limit of transactions allowed in the period.',
  '116': 'Unauthorized. Please contact the Card Issuer.',
  '117': 'Transaction not found.',
  '118': 'Unauthorized. Card locked.',
  '119': 'Unauthorized. Invalid security code',
  '121': 'Error processing. Please try again.',
  '122': 'Transaction previously sent',
  '123': 'Unauthorized. Bearer requested the end of the recurrences in the issuer.',
  '124': 'Unauthorized. Contact Rede',
};

/** The integration returns the simulator gives (manual: "Retornos de integração"). */
export const REDE_INTEGRATION_RETURNS = {
  expirationYearFormat: ['2', 'expirationYear: Invalid parameter format'],
  expirationYearMissing: ['3', 'expirationYear: Required parameter missing'],
  securityCodeSize: ['15', 'securityCode: Invalid parameter size'],
  securityCodeFormat: ['16', 'securityCode: Invalid parameter format'],
  softDescriptorSize: ['31', 'softdescriptor: Invalid parameter size'],
  expirationMonthFormat: ['33', 'expirationMonth: Invalid parameter format'],
  expirationMonthMissing: ['35', 'expirationMonth: Required parameter missing'],
  cardNumberSize: ['36', 'cardNumber: Invalid parameter size'],
  cardNumberFormat: ['37', 'cardNumber: Invalid parameter format'],
  cardNumberMissing: ['38', 'cardNumber: Required parameter missing'],
  referenceSize: ['39', 'reference: Invalid parameter size'],
  referenceFormat: ['40', 'reference: Invalid parameter format'],
  referenceMissing: ['41', 'reference: Required parameter missing'],
  /** Also for a reference whose authorization was declined: a reference is used once per PV, whatever came of it. */
  referenceUsed: ['42', 'reference: Order number already exists.'],
  installmentsNotMatching: ['46', 'installments: Not correspond to authorization transaction'],
  amountExceedsAuthorized: ['49', 'The value of the transaction exceeds the authorized'],
  installmentsFormat: ['50', 'installments: Invalid parameter format'],
  installmentsNotAllowed: ['54', 'installments: Parameter not allowed for this transaction'],
  cardHolderNameSize: ['55', 'cardHolderName: Invalid parameter size'],
  amountFormat: ['71', 'amount: Invalid parameter format'],
  amountMissing: ['73', 'amount: Required parameter missing'],
  kindFormat: ['76', 'kind: Invalid parameter format'],
  transactionDoesNotExist: ['78', 'Transaction does not exist'],
  tidFormat: ['98', 'tid: Invalid parameter format'],
  installmentsGreater: ['151', 'installments: Greater than allowed'],
  captureNotAllowed: ['158', 'capture: Type not allowed for this transaction'],
  invalidJson: ['167', 'Invalid request JSON'],
  invalidContentType: ['169', 'Invalid Content-Type'],
  operationNotAllowed: ['171', 'Operation not allowed for this transaction'],
} as const satisfies Record<string, readonly [string, string]>;

/** Cancellation returns (manual: "Retornos de cancelamento"). */
export const REDE_REFUND_RETURNS = {
  notFound: ['353', 'Transaction not found'],
  alreadyCanceled: ['355', 'Transaction already canceled.'],
  greaterThanTransaction: ['357', 'Sum of amount refunds greater than the transaction amount'],
  greaterThanAvailable: ['358', 'Sum of amount refunds greater than the value processed available for refund'],
  done: ['359', 'Refund successful'],
  requested: ['360', 'Refund request has been successful'],
} as const satisfies Record<string, readonly [string, string]>;

/** What an OAuth access token lasts (manual: "Autenticação OAuth 2.0": expires_in 1440 seconds, 24 minutes). */
export const REDE_TOKEN_LIFETIME_SECONDS = 1440;
