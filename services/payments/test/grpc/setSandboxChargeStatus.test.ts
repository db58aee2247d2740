import { randomUUID } from 'node:crypto';
import { boletoCharge, cardCharge, cardNumberEnding, chargeEventsOf, createMerchant, failureOf, pixCharge, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

describe('SetSandboxChargeStatus', () => {
  it('settles a Pix: pending to authorized, captured in full', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 3210 }));
    const paid = await running.client.setSandboxChargeStatus({ clientId, id: pix.id, status: 'authorized' });
    expect(paid).toMatchObject({ status: 'authorized', capturedAmount: 3210 });
    expect(paid.paymentMethod!.qrCodeData).toBe(pix.paymentMethod!.qrCodeData);
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.charge.pending', 'payments.charge.authorized']);
    // Paid Pix can then be refunded like any captured charge.
    expect(await running.client.voidCharge({ clientId, id: pix.id, amount: 210, splitRules: [] })).toMatchObject({ status: 'authorized', refundedAmount: 210 });
  });

  it('fails a boleto that was not paid', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const due = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const boleto = await running.client.createCharge(boletoCharge(clientId, merchant.id, due));
    expect(await running.client.setSandboxChargeStatus({ clientId, id: boleto.id, status: 'failed' })).toMatchObject({ status: 'failed', capturedAmount: 0 });
  });

  it('moves a captured charge to refund_pending, then voided; and a chargeback marks a dispute', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(await running.client.setSandboxChargeStatus({ clientId, id: charge.id, status: 'refund_pending' })).toMatchObject({ status: 'refund_pending' });
    expect(await running.client.setSandboxChargeStatus({ clientId, id: charge.id, status: 'voided' })).toMatchObject({ status: 'voided', refundedAmount: 1000 });

    const disputed = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    const chargedBack = await running.client.setSandboxChargeStatus({ clientId, id: disputed.id, status: 'charged_back' });
    expect(chargedBack).toMatchObject({ status: 'charged_back', isDispute: true });
  });

  it('refuses transitions the status table does not allow', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    for (const status of ['voided', 'charged_back', 'refund_pending']) {
      const error = await failureOf(running.client.setSandboxChargeStatus({ clientId, id: pix.id, status }));
      expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'charge_status_transition_not_allowed' });
    }
    const failed = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('5')));
    expect(await failureOf(running.client.setSandboxChargeStatus({ clientId, id: failed.id, status: 'authorized' }))).toMatchObject({
      businessCode: 'charge_status_transition_not_allowed',
    });
    expect((await running.client.getCharge({ clientId, id: pix.id })).status).toBe('pending');
  });

  it('refuses a target outside the sandbox list', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    for (const status of ['pending', 'pre_authorized', 'canceled', 'paid']) {
      const error = await failureOf(running.client.setSandboxChargeStatus({ clientId, id: pix.id, status }));
      expect(error.kind).toBe('validation');
      expect(error.details![0]!.field).toBe('status');
    }
  });

  it('answers not_found for a charge of another client', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    expect((await failureOf(running.client.setSandboxChargeStatus({ clientId: randomUUID(), id: pix.id, status: 'authorized' }))).kind).toBe('not_found');
  });
});
