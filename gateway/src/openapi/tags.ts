/** An OpenAPI tag: generated clients group operations by it, documentation pages make a section of it. */
export interface ApiTag {
  readonly name: string;
  readonly description: string;
}

export function apiTag(name: string, description: string): ApiTag {
  return { name, description };
}

/**
 * The tags of the gateway's routes. A route names its tags from here (or declares its own with apiTag), so no
 * tag reaches the document without a description. The names are part of the contract: clients generated from
 * the document name their API classes after them.
 */
export const TAGS = {
  health: apiTag('Health', 'Readiness of the gateway and of every service behind it.'),
  docs: apiTag('Docs', 'This OpenAPI document.'),
  admin: apiTag('Admin', 'Operator routes (X-Admin-Token): client accounts and their secret API keys. Served on the admin port (ADMIN_PORT), never on the public one.'),
  auth: apiTag('Auth', 'Public keys limited to some scopes and a lifetime, for code that runs in a browser or an app.'),
  customers: apiTag('Customers', 'Buyers of a client account, unique by e-mail and by document, and the cards saved for them.'),
  linkSettings: apiTag('Payment-link settings', 'Colours, logo and company URL of the hosted checkout page, for the client or for one merchant.'),
  subscriptions: apiTag('Subscriptions', "Recurring charges billed in cycles, with trials, pauses and the client's dunning policy."),
  merchants: apiTag('Merchants', 'Merchants with their providers, tried in priority order with failover, and their platform fee rules.'),
  providers: apiTag('Providers', "A merchant's connection to an acquirer (or to the SANDBOX provider)."),
  flows: apiTag('Flows', "Routing flows: the providers a merchant's charges of one payment method go to, in order."),
  cards: apiTag('Cards', 'The card vault: single-use tokens and saved cards. Card numbers and CVVs are never returned.'),
  charges: apiTag('Charges', 'Card, debit, Pix, boleto and voucher charges: capture, void and refunds, antifraud, 3DS2 setup.'),
  webhooks: apiTag('Webhooks', 'Signed deliveries of platform events (Standard Webhooks), with durable retries and a delivery log.'),
  sessions: apiTag('Sessions (payment links)', 'Payment links paid once or many times, their history, and what the hosted checkout page shows.'),
  registrationReviews: apiTag('Seller registration reviews', "A provider's review of a seller's registration data, with its deadline and requested fields."),
  sellers: apiTag('Sellers', 'Receivers of split payments, and their links to providers.'),
  payouts: apiTag('Payouts', 'The split ledger: balances, payment batches (transfers) and their orders; settlement.'),
  plans: apiTag('Plans', "Fee tables of the platform's own acquiring (SUBACQUIRER)."),
  prepayment: apiTag('Prepayment (beta)', 'Receiving future receivables early: simulate, then commit.'),
  reports: apiTag('Reports', 'CSV reports of charges, built in the background and downloaded by page.'),
  receipts: apiTag('Receipts', 'PDF receipts of voided and refunded charges.'),
} as const satisfies Record<string, ApiTag>;
