/**
 * What the OpenAPI examples share: the ids of one story (a client's merchant, its customer, a card saved for her,
 * a charge on it), so that the merchant one example answers is the merchantId the next one sends, and the SANDBOX
 * test cards of the README. Examples are typed by the schemas of their routes and parsed by them in the tests.
 */
export const SAMPLE = {
  clientId: 'f514c633-55ee-4cea-9470-998a5eb7e748',
  merchantId: 'bb20d3cf-e8dc-41df-b3a7-f0930cc23b06',
  providerId: 'df554c86-ddbd-4071-8e65-2fece04d25b0',
  customerId: '42f6389a-62fe-47ac-aaf1-6d2bfbbf5f65',
  tokenId: '08ce3fbf-04e4-432f-a61b-b7357ebaef45',
  cardId: 'ea7e5056-437a-4a13-ac26-cd75a45688d1',
  chargeId: '976e8093-55c5-4e9f-a4bc-5e21ce71ba47',
  declinedChargeId: 'da4f4703-0793-4fe0-b17d-d8784c0d5714',
  sessionId: 'f922b123-c117-4667-9116-b0ec2167d6cc',
  sessionChargeId: 'e74f8989-b8b9-48ac-8d37-c29a92ab24e7',
  webhookId: '61204d8e-cebc-41db-af6c-ab209705416b',
  keyId: '9432f20d-4b58-4629-915f-2ef74cf6922c',
  createdAt: '2026-03-02T14:20:31.938Z',
  updatedAt: '2026-03-02T14:20:33.102Z',
  /** The base URL links in answers start with (the gateway's PUBLIC_URL). */
  publicUrl: 'https://payments.example.org',
} as const;

/**
 * SANDBOX test cards: the last digit of the number decides (0, 1 and 4 authorize; 2 declines with a code chosen by
 * the digit before it, here insufficient_funds; 3 expired_card; 5 restricted_card; 6 times out; 7 is canceled); a
 * CVV ending 0 is validated.
 */
export const SANDBOX_CARDS = {
  approved: { cardHolderName: 'Ana Souza', cardNumber: '4000000000000010', cardCvv: '120', cardExpirationDate: '12/2030' },
  declined: { cardHolderName: 'Ana Souza', cardNumber: '4000000000000002', cardCvv: '120', cardExpirationDate: '12/2030' },
} as const;
