import { randomUUID } from 'node:crypto';
import { boletoCharge, cardCharge, cardNumberEnding, createMerchant, failureOf, pixCharge, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

/** The transaction id at the end of an image URL (`.../sbx_<32 hex>.png`). */
const transactionIdOf = (url: string | undefined) => /(sbx_[0-9a-f]{32})\.png$/.exec(url ?? '')![1]!;

describe('GetSandboxPaymentDocument: what the images of SANDBOX Pix and boleto charges draw', () => {
  it('finds the Pix payload and the boleto barcode by the transaction id of their image URLs, without a client', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    const pixId = transactionIdOf(pix.paymentMethod!.qrCodeImageUrl);
    expect(await running.client.getSandboxPaymentDocument({ transactionId: pixId, paymentType: 'pix' })).toEqual({
      paymentType: 'pix',
      data: pix.paymentMethod!.qrCodeData,
    });
    const due = new Date(running.clock.now().getTime() + 5 * 86_400_000).toISOString().slice(0, 10);
    const boleto = await running.client.createCharge(boletoCharge(clientId, merchant.id, due));
    const boletoId = transactionIdOf(boleto.paymentMethod!.barcodeImageUrl);
    expect(await running.client.getSandboxPaymentDocument({ transactionId: boletoId, paymentType: 'boleto' })).toEqual({
      paymentType: 'boleto',
      data: boleto.paymentMethod!.barcodeData,
    });
  });

  it('answers not_found for a forged id, the other payment type, a card charge, a charge id and junk', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    const pixId = transactionIdOf(pix.paymentMethod!.qrCodeImageUrl);
    const card = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    const cardId = card.transactionRequests[0]!.transactionId;
    expect(cardId).toMatch(/^sbx_[0-9a-f]{32}$/);
    const forged = pixId.slice(0, -1) + (pixId.endsWith('0') ? '1' : '0');
    for (const request of [
      { transactionId: forged, paymentType: 'pix' },
      { transactionId: pixId, paymentType: 'boleto' },
      { transactionId: pixId, paymentType: 'credit' },
      { transactionId: cardId, paymentType: 'pix' },
      { transactionId: pix.id, paymentType: 'pix' },
      { transactionId: `${pixId}' OR '1'='1`, paymentType: 'pix' },
      { transactionId: '', paymentType: '' },
    ]) {
      const failure = await failureOf(running.client.getSandboxPaymentDocument(request));
      expect({ request, kind: failure.kind }).toEqual({ request, kind: 'not_found' });
    }
  });
});
