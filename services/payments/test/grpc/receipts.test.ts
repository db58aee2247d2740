import { randomUUID } from 'node:crypto';
import type { payments, settings } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';
import { createClientsPort } from '../../src/modules/receipts/app/clientsPort';
import { formatMoney, renderReceiptPdf, winAnsi } from '../../src/modules/receipts/app/pdf';
import type { ReceiptDocument } from '../../src/modules/receipts/app/rules';
import { cardCharge, cardNumberEnding, createMerchant, failureOf, startCharges, type RunningCharges } from '../support/charges';
import { pdfInfo, pdfText, startReceipts, type ReceiptsServer } from '../support/receipts';

let running: RunningCharges;
let receipts: ReceiptsServer;

beforeAll(async () => {
  running = await startCharges();
  receipts = await startReceipts(running);
});

afterAll(async () => {
  await receipts?.stop();
  await running?.stop();
});

/** A captured SANDBOX card charge of a new client. */
async function capturedCharge(amount: number, overrides: Partial<payments.CreateChargeRequest> = {}) {
  const clientId = randomUUID();
  const merchant = await createMerchant(running.client, clientId);
  const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount, ...overrides }));
  expect(charge.status).toBe(overrides.capture === false ? 'pre_authorized' : 'authorized');
  return { clientId, merchant, charge };
}

const refund = (clientId: string, id: string, amount?: number) => running.client.voidCharge({ clientId, id, splitRules: [], ...(amount !== undefined ? { amount } : {}) });

async function receiptRows(chargeId: string): Promise<number> {
  const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts WHERE charge_id = $1', [chargeId]);
  return rows[0]!.n;
}

describe('CreateReceipt, GetReceipt, ReadReceiptFile', () => {
  it('makes a refund receipt of a SANDBOX charge refunded in part, with every figure of the charge in its one-page PDF', async () => {
    const { clientId, charge } = await capturedCharge(123_456);
    receipts.clients.names.set(clientId, 'Padaria Pão Quente Ltda');
    const refunded = await refund(clientId, charge.id, 30_000);
    expect(refunded).toMatchObject({ status: 'authorized', capturedAmount: 123_456, refundedAmount: 30_000 });
    const refundRequest = refunded.transactionRequests.find((r) => r.requestType === 'refund')!;
    const authorization = refunded.transactionRequests.find((r) => r.requestType === 'authorization')!;
    const authorizationCode = authorization.providerAuthorization!.networkAuthorizationCode;
    expect(authorizationCode).toMatch(/^\w{6}$/);

    const receipt = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'refund_receipt' });
    expect(receipt).toEqual({ id: expect.any(String), clientId, chargeId: charge.id, type: 'refund_receipt', createdAt: expect.any(Date) });
    expect(await receipts.client.getReceipt({ clientId, id: receipt.id })).toEqual(receipt);
    expect(receipts.clients.asked).toContain(clientId);

    const file = await receipts.client.readReceiptFile({ clientId, id: receipt.id });
    expect(file.contentType).toBe('application/pdf');
    expect(file.data.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(file.data);
    expect(text).toContain('Open Payments Platform Refund receipt');
    expect(text).toContain(`Charge id ${charge.id}`);
    expect(text).toContain('Client Padaria Pão Quente Ltda');
    expect(text).toContain('Merchant Loja Teste');
    expect(text).toContain('Original amount R$ 1.234,56');
    expect(text).toContain('Refunded amount R$ 300,00');
    expect(text).toContain('Remaining amount R$ 934,56');
    expect(text).toContain(`Card Visa ending in ${charge.paymentSource!.last4digits} (credit)`);
    expect(text).toContain(`Authorization code ${authorizationCode}`);
    expect(text).toContain(`Charge date ${charge.createdAt!.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
    expect(text).toContain(`Refund date ${refundRequest.createdAt!.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
    expect(text).toContain('This receipt confirms that R$ 300,00 of the transaction above was refunded');
    expect(text).not.toContain('We confirm the cancellation');

    const info = pdfInfo(file.data);
    expect(info.Pages).toBe('1');
    expect(info['Page size']).toContain('(A4)');
    // The document's own dates are the refund's, not the time it was made.
    expect(info.CreationDate).toBe(refundRequest.createdAt!.toISOString().slice(0, 19) + 'Z');
  });

  it('answers the receipt already made, same id and same bytes, even after the charge changed', async () => {
    const { clientId, charge } = await capturedCharge(10_000);
    await refund(clientId, charge.id, 1_000);
    const first = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'refund_receipt' });
    const firstPdf = (await receipts.client.readReceiptFile({ clientId, id: first.id })).data;

    running.clock.advance(3_600_000);
    receipts.clients.names.set(clientId, 'A new name');
    const asked = receipts.clients.asked.length;
    await refund(clientId, charge.id, 2_000);
    const second = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'refund_receipt' });
    expect(second).toEqual(first);
    const secondPdf = (await receipts.client.readReceiptFile({ clientId, id: second.id })).data;
    expect(Buffer.compare(secondPdf, firstPdf)).toBe(0);
    expect(pdfText(secondPdf)).toContain('Refunded amount R$ 10,00');
    // Served as it was kept, not made again.
    expect(receipts.clients.asked).toHaveLength(asked);
    expect(await receiptRows(charge.id)).toBe(1);
  });

  it('makes one receipt when several POSTs for the same charge and type arrive at once', async () => {
    const { clientId, charge } = await capturedCharge(5_000);
    await refund(clientId, charge.id, 500);
    const answers = await Promise.all(Array.from({ length: 6 }, () => receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'refund_receipt' })));
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(await receiptRows(charge.id)).toBe(1);
  });

  it('refuses a captured charge never refunded, for either type, with 422 receipt_not_available saying why', async () => {
    const { clientId, charge } = await capturedCharge(2_000);
    for (const type of ['refund_receipt', 'cancellation_letter']) {
      const error = await failureOf(receipts.client.createReceipt({ clientId, chargeId: charge.id, type }));
      expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'receipt_not_available' });
      expect(error.message).toBe(`Charge ${charge.id} was neither voided nor refunded (status authorized)`);
    }
    expect(await receiptRows(charge.id)).toBe(0);
  });

  it('makes a cancellation letter of a voided authorization (nothing charged), and refuses it a refund receipt', async () => {
    const { clientId, charge } = await capturedCharge(4_990, { capture: false });
    const voided = await refund(clientId, charge.id);
    expect(voided).toMatchObject({ status: 'voided', capturedAmount: 0, refundedAmount: 0 });

    const noRefund = await failureOf(receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'refund_receipt' }));
    expect(noRefund).toMatchObject({ businessCode: 'receipt_not_available' });
    expect(noRefund.message).toContain('has no refund');

    const letter = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'cancellation_letter' });
    expect(letter.type).toBe('cancellation_letter');
    const text = pdfText((await receipts.client.readReceiptFile({ clientId, id: letter.id })).data);
    expect(text).toContain('Cancellation letter');
    expect(text).toContain(`We confirm the cancellation of the transaction ${charge.id} of R$ 49,90`);
    expect(text).toContain(`no amount will be charged to the card ending in ${charge.paymentSource!.last4digits}`);
    expect(text).toContain('Refunded amount R$ 0,00');
    expect(text).toContain('Void date');
  });

  it('makes a cancellation letter of a fully refunded charge (amount returned), not of one refunded in part', async () => {
    const { clientId, charge } = await capturedCharge(8_000);
    await refund(clientId, charge.id, 3_000);
    const partial = await failureOf(receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'cancellation_letter' }));
    expect(partial).toMatchObject({ businessCode: 'receipt_not_available' });
    expect(partial.message).toContain('refunded in part (3000 of 8000)');

    await refund(clientId, charge.id);
    const letter = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'cancellation_letter' });
    const text = pdfText((await receipts.client.readReceiptFile({ clientId, id: letter.id })).data);
    expect(text).toContain('The amount of R$ 80,00 was returned to the card ending in');
    expect(text).toContain('Remaining amount R$ 0,00');
    // Each type is its own document of the charge.
    const receipt = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'refund_receipt' });
    expect(receipt.id).not.toBe(letter.id);
    expect(await receiptRows(charge.id)).toBe(2);
  });

  it("refuses a charge that a provider other than the platform's own processed", async () => {
    const { clientId, charge } = await capturedCharge(3_000);
    await refund(clientId, charge.id);
    await running.pool.query("UPDATE charges SET provider_type = 'ACME_ACQUIRER' WHERE id = $1", [charge.id]);
    const error = await failureOf(receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'cancellation_letter' }));
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'receipt_not_available' });
    expect(error.message).toContain("was processed by a provider of type ACME_ACQUIRER; receipts are issued only for charges of the platform's own providers (SANDBOX, SUBACQUIRER)");
    await running.pool.query('UPDATE charges SET provider_type = NULL WHERE id = $1', [charge.id]);
    const none = await failureOf(receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'cancellation_letter' }));
    expect(none).toMatchObject({ businessCode: 'receipt_not_available', message: expect.stringContaining('was processed by no provider;') });
  });

  it("shows the authorization's NSU when the network gave no authorization code", async () => {
    const { clientId, charge } = await capturedCharge(6_000);
    await refund(clientId, charge.id);
    const authorization = charge.transactionRequests.find((r) => r.requestType === 'authorization')!;
    expect(authorization.authorizationNsu).toMatch(/^\d{9}$/);
    await running.pool.query('UPDATE transaction_requests SET network_authorization_code = NULL WHERE id = $1', [authorization.id]);
    const receipt = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'cancellation_letter' });
    expect(pdfText((await receipts.client.readReceiptFile({ clientId, id: receipt.id })).data)).toContain(`Authorization code ${authorization.authorizationNsu} `);
  });

  it("answers not_found for another client's charge and receipt, an unknown id and a malformed one", async () => {
    const { clientId, charge } = await capturedCharge(2_500);
    await refund(clientId, charge.id);
    const receipt = await receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'refund_receipt' });
    const intruder = randomUUID();
    for (const chargeId of [charge.id, randomUUID(), 'not-a-uuid']) {
      const error = await failureOf(receipts.client.createReceipt({ clientId: intruder, chargeId, type: 'refund_receipt' }));
      expect(error).toMatchObject({ kind: 'not_found', message: `Charge ${chargeId} not found` });
    }
    for (const id of [receipt.id, randomUUID(), 'not-a-uuid']) {
      expect(await failureOf(receipts.client.getReceipt({ clientId: intruder, id }))).toMatchObject({ kind: 'not_found', message: `Receipt ${id} not found` });
      expect(await failureOf(receipts.client.readReceiptFile({ clientId: intruder, id }))).toMatchObject({ kind: 'not_found' });
    }
    expect(await receiptRows(charge.id)).toBe(1);
  });

  it('refuses an unknown type and a malformed client id as invalid', async () => {
    const { clientId, charge } = await capturedCharge(1_500);
    const error = await failureOf(receipts.client.createReceipt({ clientId, chargeId: charge.id, type: 'invoice' }));
    expect(error).toMatchObject({ kind: 'validation', details: [{ field: 'type', message: 'must be one of refund_receipt, cancellation_letter' }] });
    expect((await failureOf(receipts.client.getReceipt({ clientId: 'nobody', id: randomUUID() }))).kind).toBe('validation');
  });

  it("names the merchant by its trading name, and by the charge's descriptor once the merchant is deleted", async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant({
      clientId,
      mcc: '5999',
      name: 'Acme Holding SA',
      merchantName: 'Acme Store',
      merchantUrl: '',
      providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'sk_test_secret' }, options: {} }],
    });
    const kept = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { statementDescriptor: 'ACME*STORE' }));
    const gone = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { statementDescriptor: 'ACME*STORE' }));
    await refund(clientId, kept.id);
    await refund(clientId, gone.id);
    const first = await receipts.client.createReceipt({ clientId, chargeId: kept.id, type: 'refund_receipt' });
    expect(pdfText((await receipts.client.readReceiptFile({ clientId, id: first.id })).data)).toContain('Merchant Acme Store Charge id');

    await running.client.deleteMerchant({ clientId, id: merchant.id });
    const second = await receipts.client.createReceipt({ clientId, chargeId: gone.id, type: 'refund_receipt' });
    expect(pdfText((await receipts.client.readReceiptFile({ clientId, id: second.id })).data)).toContain('Merchant ACME*STORE Charge id');
  });
});

describe('the receipt PDF', () => {
  const document = (overrides: Partial<ReceiptDocument> = {}): ReceiptDocument => ({
    type: 'refund_receipt',
    clientName: 'Comércio Exemplo Ltda',
    merchantName: 'Loja Exemplo',
    chargeId: '0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11',
    paymentType: 'credit',
    currency: 'BRL',
    originalAmount: 10_000,
    refundedAmount: 2_500,
    remainingAmount: 7_500,
    neverCaptured: false,
    cardBrand: 'mastercard',
    cardLast4: '4444',
    authorizationCode: 'A1B2C3',
    chargedAt: new Date('2026-03-04T05:06:07.000Z'),
    canceledAt: new Date('2026-03-05T10:00:00.000Z'),
    ...overrides,
  });

  it('is the same bytes for the same document, whatever the clock says', async () => {
    const first = await renderReceiptPdf(document());
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(Buffer.compare(await renderReceiptPdf(document()), first)).toBe(0);
    expect(pdfInfo(first)).toMatchObject({ CreationDate: '2026-03-05T10:00:00Z', ModDate: '2026-03-05T10:00:00Z', Title: `Refund receipt - ${document().chargeId}` });
  });

  it('keeps to one page with the longest names, and fails rather than spill onto a second', async () => {
    const longest = await renderReceiptPdf(document({ type: 'cancellation_letter', clientName: 'Nome '.repeat(40).trim(), merchantName: 'Loja '.repeat(40).trim() }));
    expect(pdfInfo(longest).Pages).toBe('1');
    await expect(renderReceiptPdf(document({ merchantName: 'Loja '.repeat(2_000) }))).rejects.toThrow('does not fit on one page');
  });

  it('writes a payment without a card, and no authorization code, in words', async () => {
    const text = pdfText(await renderReceiptPdf(document({ paymentType: 'pix', cardBrand: null, cardLast4: null, authorizationCode: null })));
    expect(text).toContain('Card not a card payment (pix)');
    expect(text).toContain('Authorization code none');
  });

  it('formats minor units with the decimals of the currency', () => {
    expect(formatMoney(123_456, 'BRL').replace(/\s/g, ' ')).toBe('R$ 1.234,56');
    expect(formatMoney(1_500, 'JPY').replace(/\s/g, ' ')).toBe('JP¥ 1.500');
  });

  it('replaces what the built-in font cannot write, and keeps Portuguese accents', async () => {
    expect(winAnsi('Açaí “Bom” — 漢字 😀')).toBe('Açaí “Bom” — ?? ?');
    expect(winAnsi('Sa\u0303o')).toBe('São');
    const text = pdfText(await renderReceiptPdf(document({ clientName: 'Loja 漢 São' })));
    expect(text).toContain('Client Loja ? São');
  });
});

describe('the clients port over gRPC', () => {
  it("asks settings' GetClient for the caller and answers the client's name", async () => {
    const asked: settings.GetClientRequest[] = [];
    const client = {
      getClient: async (request: settings.GetClientRequest) => {
        asked.push(request);
        return { id: request.clientId, name: 'Comércio Exemplo Ltda', environment: 'sandbox', prepaymentEnabled: false } as settings.Client;
      },
    } as unknown as PromiseClient<typeof settings.SettingsServiceService>;
    const clientId = randomUUID();
    expect(await createClientsPort(client).clientName(clientId)).toBe('Comércio Exemplo Ltda');
    expect(asked).toEqual([{ clientId }]);
  });
});
