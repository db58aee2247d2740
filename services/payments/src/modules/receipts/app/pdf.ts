import PDFDocument from 'pdfkit';
import type { ReceiptDocument } from './rules';

/** The name the platform signs its documents with. */
export const PLATFORM_TITLE = 'Open Payments Platform';

const TITLES = { refund_receipt: 'Refund receipt', cancellation_letter: 'Cancellation letter' } as const;

const MARGIN = 56;
const LABEL_WIDTH = 150;
const GREY = '#555555';

/** Amounts in minor units as the currency is written in Brazil (`R$ 1.234,56`), with the currency's own decimals. */
export function formatMoney(minorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat('pt-BR', { style: 'currency', currency });
  return format.format(minorUnits / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** The same instant for every reader, whatever the server's zone. */
export function formatDate(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

// Helvetica without embedded fonts writes WinAnsi (Latin-1 and a few typographic signs); anything else would be garbage.
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text as the built-in font can write it: composed accents kept, any other character replaced by `?`. */
export function winAnsi(text: string): string {
  return [...text.normalize('NFC')]
    .map((c) => {
      const code = c.codePointAt(0)!;
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(c) || c === '\n' ? c : '?';
    })
    .join('');
}

function cardText(doc: ReceiptDocument): string {
  if (!doc.cardLast4) return `not a card payment (${doc.paymentType})`;
  const brand = doc.cardBrand ? doc.cardBrand.charAt(0).toUpperCase() + doc.cardBrand.slice(1) : 'Card';
  return `${brand} ending in ${doc.cardLast4} (${doc.paymentType})`;
}

function letterText(doc: ReceiptDocument): string {
  const money = (amount: number) => formatMoney(amount, doc.currency);
  const card = doc.cardLast4 ? `the card ending in ${doc.cardLast4}` : `the ${doc.paymentType} payment`;
  const outcome = doc.neverCaptured
    ? `The authorization was voided before capture: no amount will be charged to ${card}.`
    : `The amount of ${money(doc.refundedAmount)} was returned to ${card} on ${formatDate(doc.canceledAt)}.`;
  return (
    `To whom it may concern,\n\n` +
    `We confirm the cancellation of the transaction ${doc.chargeId} of ${money(doc.originalAmount)}, made on ` +
    `${formatDate(doc.chargedAt)} at ${doc.merchantName}. ${outcome}\n\n` +
    `Sincerely,\n${PLATFORM_TITLE}`
  );
}

function refundText(doc: ReceiptDocument): string {
  return `This receipt confirms that ${formatMoney(doc.refundedAmount, doc.currency)} of the transaction above was refunded on ${formatDate(doc.canceledAt)}.`;
}

/**
 * The receipt as a one-page A4 PDF, with the built-in Helvetica. Pure: the same document gives the same bytes, since
 * the PDF's dates (and so its file id) come from the charge, never from the clock.
 */
export function renderReceiptPdf(doc: ReceiptDocument): Promise<Buffer> {
  const title = `${TITLES[doc.type]} - ${doc.chargeId}`;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    font: 'Helvetica',
    info: { Title: title, Author: PLATFORM_TITLE, Creator: PLATFORM_TITLE, Producer: PLATFORM_TITLE, CreationDate: doc.canceledAt, ModDate: doc.canceledAt },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  // A page the text would open is a bug of this layout: the receipt is one page by definition.
  pdf.on('pageAdded', () => pdf.emit('error', new Error(`receipt ${doc.chargeId} does not fit on one page`)));

  const width = pdf.page.width - 2 * MARGIN;
  pdf.font('Helvetica-Bold').fontSize(20).text(PLATFORM_TITLE);
  pdf.moveDown(0.2).font('Helvetica').fontSize(14).fillColor(GREY).text(TITLES[doc.type]);
  pdf.moveDown(0.5).moveTo(MARGIN, pdf.y).lineTo(MARGIN + width, pdf.y).strokeColor('#cccccc').stroke();
  pdf.moveDown(1).fillColor('black').fontSize(11);

  const money = (amount: number) => formatMoney(amount, doc.currency);
  const rows: Array<[string, string]> = [
    ['Client', doc.clientName],
    ['Merchant', doc.merchantName],
    ['Charge id', doc.chargeId],
    ['Charge date', formatDate(doc.chargedAt)],
    [doc.neverCaptured ? 'Void date' : 'Refund date', formatDate(doc.canceledAt)],
    ['Original amount', money(doc.originalAmount)],
    ['Refunded amount', money(doc.refundedAmount)],
    ['Remaining amount', money(doc.remainingAmount)],
    ['Card', cardText(doc)],
    ['Authorization code', doc.authorizationCode ?? 'none'],
  ];
  for (const [label, value] of rows) {
    const top = pdf.y;
    pdf.font('Helvetica-Bold').text(label, MARGIN, top, { width: LABEL_WIDTH });
    const labelBottom = pdf.y;
    pdf.font('Helvetica').text(winAnsi(value), MARGIN + LABEL_WIDTH, top, { width: width - LABEL_WIDTH });
    pdf.y = Math.max(labelBottom, pdf.y) + 4;
  }

  pdf.moveDown(1.5).font('Helvetica').fontSize(11);
  pdf.text(winAnsi(doc.type === 'cancellation_letter' ? letterText(doc) : refundText(doc)), MARGIN, pdf.y, { width, align: 'left' });
  pdf.end();
  return done;
}
