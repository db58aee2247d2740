import type { sessions, settings } from '@platform/contracts';
import { CARD_PAYMENT_TYPES, LINK_SETTINGS_COLOR_FIELDS, logoUrl, parseSplitRules } from '@platform/api-model';
import type { FieldViolation } from '@platform/kit';

/** Where the page stands: a buyer can pay, or a clear page says why not. */
export type CheckoutState = 'payable' | 'paid' | 'processing' | 'canceled' | 'unavailable' | 'unknown';

/** The methods the page offers, by the session's `paymentType`, with the label a buyer reads. */
export const METHOD_LABELS: Readonly<Record<string, string>> = {
  credit: 'Credit card',
  debit: 'Debit card',
  voucher: 'Voucher card',
  pix: 'Pix',
  boleto: 'Boleto',
};
const CARD_METHODS: ReadonlySet<string> = new Set(CARD_PAYMENT_TYPES);

/** What the page's script needs to pay: never more than a buyer may see. */
export interface CheckoutConfig {
  sessionId: string;
  clientId: string;
  publicKey: string;
  amount: number;
  currency: string;
  methods: Array<{ paymentType: string; installments: number; expiresIn?: number; expiresDate?: string; instructions?: string }>;
}

/**
 * The state of a session for a buyer, from its aggregate state: paid; canceled or voided; no longer taking payments
 * (inactive, past its due date, or a 1:N session that reached its maximum); a 1:1 session whose one payment is in
 * progress (a Pix or boleto not settled yet); or payable.
 */
export function checkoutState(session: sessions.Session, now: Date): CheckoutState {
  if (session.status === 'paid') return 'paid';
  if (session.status === 'canceled' || session.status === 'voided') return 'canceled';
  if (session.status !== 'created') return 'unavailable';
  if (!session.isActive || (session.dueDate && session.dueDate.getTime() <= now.getTime())) return 'unavailable';
  const counts = session.multiplePayments;
  if (counts && counts.status === 'disabled') return counts.maxPayments === 1 && counts.pendingCount > 0 ? 'processing' : 'unavailable';
  if (counts && counts.maxPayments !== -1 && counts.paymentCount + counts.pendingCount >= counts.maxPayments) {
    return counts.maxPayments === 1 && counts.pendingCount > 0 ? 'processing' : 'unavailable';
  }
  // A split a charge would refuse (a link stored before splits were checked as a charge's) takes no payment.
  const splitProblems: FieldViolation[] = [];
  if (session.splitRules.length > 0) parseSplitRules(session.splitRules, session.amount, splitProblems);
  if (splitProblems.length > 0) return 'unavailable';
  return session.paymentMethods.some((m) => m.paymentType in METHOD_LABELS) ? 'payable' : 'unavailable';
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** JSON inside a `<script type="application/json">`: nothing in it can close the element or open a comment. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('pt-BR', { style: 'currency', currency }).format(amount / 100);
  } catch {
    return `${currency} ${(amount / 100).toFixed(2)}`;
  }
}

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** Used when the settings hold no value for a color (settings always answer with the platform's defaults). */
const FALLBACK_COLORS: Record<(typeof LINK_SETTINGS_COLOR_FIELDS)[number], string> = {
  mainColor: '#1A73E8',
  secondaryColor: '#FFFFFF',
  attentionColor: '#F9AB00',
  errorColor: '#D93025',
  successColor: '#188038',
  backgroundColor: '#F8F9FA',
};

/** The merchant's colors as CSS custom properties; a value that is not a color is never written into the page. */
export function themeCss(linkSettings: settings.LinkSettings | undefined): string {
  const declarations = LINK_SETTINGS_COLOR_FIELDS.map((field) => {
    const value = linkSettings?.[field];
    const color = value && COLOR.test(value) ? value : FALLBACK_COLORS[field];
    return `--${field.replace(/Color$/, '')}:${color}`;
  });
  return `:root{${declarations.join(';')}}`;
}

function safeWebUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

interface Shell {
  title: string;
  nonce: string;
  theme: string;
  header: string;
  main: string;
  config?: CheckoutConfig;
}

function shell({ title, nonce, theme, header, main, config }: Shell): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css">
<style nonce="${nonce}">${theme}</style>
</head>
<body>
<div class="page">
${header}
<main id="main">
${main}
</main>
</div>
${config ? `<script type="application/json" id="checkout-config">${jsonForScript(config)}</script>\n<script src="/checkout/assets/checkout.js" defer></script>` : ''}
</body>
</html>
`;
}

function headerOf(linkSettings: settings.LinkSettings | undefined, publicUrl: string): string {
  const logo = linkSettings?.logoId ? `<img class="logo" src="${escapeHtml(logoUrl(publicUrl, linkSettings.logoId))}" alt="Store logo">` : '';
  const store = safeWebUrl(linkSettings?.companyUrl);
  const back = store ? `<a class="store-link" href="${escapeHtml(store)}" rel="noopener noreferrer">Back to the store</a>` : '';
  return `<header class="top">${logo}${back}</header>`;
}

/** The pages that say why nothing can be paid: a session's state, or the page itself failing. */
export type Notice = Exclude<CheckoutState, 'payable'> | 'down';

const NOTICES: Record<Notice, { title: string; text: string; tone: 'success' | 'attention' | 'error' }> = {
  paid: { title: 'This order is paid', text: 'The payment for this order was approved. There is nothing left to pay.', tone: 'success' },
  processing: {
    title: 'A payment is in progress',
    text: 'A payment for this order was started and is waiting to be confirmed. You do not need to pay again.',
    tone: 'attention',
  },
  canceled: { title: 'This payment link was canceled', text: 'The store canceled this order. Please contact the store if you still want to buy.', tone: 'error' },
  unavailable: {
    title: 'This payment link is no longer available',
    text: 'It has expired or stopped taking payments. Please contact the store for a new link.',
    tone: 'attention',
  },
  unknown: { title: 'Payment link not found', text: 'Check the address you opened: this payment link does not exist.', tone: 'error' },
  down: { title: 'The payment page is unavailable right now', text: 'Nothing was charged. Please try again in a moment.', tone: 'error' },
};

/** A page that says why the session cannot be paid (or that there is no such session). */
export function noticePage(state: Notice, options: { nonce: string; linkSettings?: settings.LinkSettings; publicUrl: string }): string {
  const notice = NOTICES[state];
  return shell({
    title: notice.title,
    nonce: options.nonce,
    theme: themeCss(options.linkSettings),
    header: headerOf(options.linkSettings, options.publicUrl),
    main: `<section class="card notice notice-${notice.tone}" data-state="${state}">
<h1>${escapeHtml(notice.title)}</h1>
<p>${escapeHtml(notice.text)}</p>
</section>`,
  });
}

function itemsTable(session: sessions.Session): string {
  const rows = session.items
    .map((item) => {
      const description = item.description ? `<span class="item-description">${escapeHtml(item.description)}</span>` : '';
      return `<tr><th scope="row"><span class="item-name">${escapeHtml(item.name)}</span>${description}</th><td class="qty">${item.quantity} × ${escapeHtml(formatMoney(item.unitPrice, session.currency))}</td><td class="line-total">${escapeHtml(formatMoney(item.unitPrice * item.quantity, session.currency))}</td></tr>`;
    })
    .join('\n');
  return `<table class="items">
<caption class="visually-hidden">Items of this order</caption>
<thead class="visually-hidden"><tr><th scope="col">Item</th><th scope="col">Quantity and price</th><th scope="col">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row" colspan="2">Total</th><td class="total" id="total">${escapeHtml(formatMoney(session.amount, session.currency))}</td></tr></tfoot>
</table>`;
}

function methodChoices(methods: CheckoutConfig['methods']): string {
  const options = methods
    .map(
      (m, i) =>
        `<label class="method"><input type="radio" name="paymentType" value="${escapeHtml(m.paymentType)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(METHOD_LABELS[m.paymentType]!)}</label>`,
    )
    .join('\n');
  return `<fieldset class="methods"${methods.length === 1 ? ' hidden' : ''}>
<legend>Pay with</legend>
${options}
</fieldset>`;
}

const field = (id: string, label: string, attributes: string, hint = '') =>
  `<div class="field">
<label for="${id}">${label}</label>${hint ? `\n<span class="hint" id="${id}-hint">${hint}</span>` : ''}
<input id="${id}" name="${id}" ${attributes} aria-describedby="${hint ? `${id}-hint ` : ''}${id}-error">
<span class="field-error" id="${id}-error"></span>
</div>`;

function cardFields(methods: CheckoutConfig['methods']): string {
  const installments = Math.max(1, ...methods.filter((m) => m.paymentType === 'credit').map((m) => m.installments));
  const installmentOptions = Array.from({ length: installments }, (_, i) => `<option value="${i + 1}">${i + 1}×</option>`).join('');
  return `<fieldset class="card-fields" data-for="card">
<legend>Card</legend>
${field('cardNumber', 'Card number', 'type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23" spellcheck="false"')}
${field('cardHolderName', 'Name on the card', 'type="text" autocomplete="cc-name" maxlength="100" spellcheck="false"')}
<div class="row">
${field('cardExpiration', 'Expiry date', 'type="text" inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="MM/YY"', 'MM/YY')}
${field('cardCvv', 'Security code', 'type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4"', '3 or 4 digits on the card')}
</div>
${
  installments > 1
    ? `<div class="field" data-for="credit"><label for="installments">Installments</label><select id="installments" name="installments">${installmentOptions}</select></div>`
    : ''
}
</fieldset>`;
}

function buyerFields(): string {
  return `<fieldset class="buyer-fields" data-for="buyer" hidden>
<legend>Your details</legend>
${field('buyerName', 'Full name', 'type="text" autocomplete="name" maxlength="100"')}
${field('buyerEmail', 'E-mail', 'type="email" autocomplete="email" maxlength="200"')}
${field('buyerDocument', 'CPF or CNPJ', 'type="text" inputmode="numeric" maxlength="18"', 'Numbers only')}
</fieldset>`;
}

/** The payable page: the order, the methods the session allows, and the forms they need. */
export function paymentPage(
  session: sessions.Session,
  options: { nonce: string; linkSettings?: settings.LinkSettings; publicUrl: string; publicKey: string },
): string {
  const methods = session.paymentMethods
    .filter((m) => m.paymentType in METHOD_LABELS)
    .map((m) => ({
      paymentType: m.paymentType,
      installments: Math.max(1, m.installments || 1),
      ...(m.expiresIn > 0 ? { expiresIn: m.expiresIn } : {}),
      ...(m.expiresDate ? { expiresDate: m.expiresDate } : {}),
      ...(m.instructions ? { instructions: m.instructions } : {}),
    }));
  const config: CheckoutConfig = {
    sessionId: session.id,
    clientId: session.clientId,
    publicKey: options.publicKey,
    amount: session.amount,
    currency: session.currency,
    methods,
  };
  const title = session.name || 'Checkout';
  const hasCard = methods.some((m) => CARD_METHODS.has(m.paymentType));
  const hasBuyer = methods.some((m) => !CARD_METHODS.has(m.paymentType));
  const total = escapeHtml(formatMoney(session.amount, session.currency));
  return shell({
    title,
    nonce: options.nonce,
    theme: themeCss(options.linkSettings),
    header: headerOf(options.linkSettings, options.publicUrl),
    config,
    main: `<section class="card order" aria-labelledby="order-title">
<h1 id="order-title">${escapeHtml(title)}</h1>
${itemsTable(session)}
</section>
<section class="card payment" aria-labelledby="payment-title" id="payment">
<h2 id="payment-title">Payment</h2>
<noscript><p class="notice-error">This page needs JavaScript to send the payment.</p></noscript>
<form id="checkout-form" novalidate>
${methodChoices(methods)}
${hasCard ? cardFields(methods) : ''}
${hasBuyer ? buyerFields() : ''}
<div class="message" id="message" role="alert" aria-live="assertive"></div>
<button type="submit" id="pay">Pay ${total}</button>
</form>
</section>
<section class="card result" id="result" hidden tabindex="-1" aria-live="polite"></section>`,
  });
}
