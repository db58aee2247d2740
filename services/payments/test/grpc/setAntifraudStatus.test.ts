import { randomUUID } from 'node:crypto';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import { cardCharge, cardNumberEnding, chargeEventsOf, createMerchant, failureOf, pixCharge, requestSummary, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

afterEach(() => {
  jest.restoreAllMocks();
});

async function merchantWithAntifraud(clientId: string) {
  return createMerchant(running.client, clientId, [
    { name: 'sandbox', priority: 1 },
    { name: 'antifraud', priority: 1, type: 'SANDBOX_ANTIFRAUD' },
  ]);
}

const analysed = (identity: string) => ({ fraudAnalysis: { customer: { name: 'Ana Lima', identity } } });

describe('antifraud at CreateCharge', () => {
  it('authorizes an approved charge after the analysis', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithAntifraud(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), analysed('11122233301')));
    expect(charge).toMatchObject({ status: 'authorized', antifraud: { status: 'approved', providerId: merchant.providers.find((p) => p.name === 'antifraud')!.id } });
    expect(requestSummary(charge).map((r) => [r.type, r.status])).toEqual([
      ['antifraud', 'success'],
      ['authorization', 'success'],
    ]);
    expect(charge.providerType).toBe('SANDBOX');
  });

  it('fails a reproved charge with fraud_suspect before any authorization', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithAntifraud(clientId);
    const authorize = jest.spyOn(SandboxProvider.prototype, 'authorize');
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), analysed('11122233305')));
    expect(charge).toMatchObject({ status: 'failed', declinedCode: 'fraud_suspect', antifraud: { status: 'reproved' }, providerId: '' });
    expect(requestSummary(charge).map((r) => [r.type, r.status])).toEqual([['antifraud', 'declined']]);
    expect(charge.transactionRequests[0]!.declinedCode).toBe('fraud_suspect');
    expect(authorize).not.toHaveBeenCalled();
  });

  it('fails a charge whose analysis failed', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithAntifraud(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), analysed('11122233302')));
    expect(charge).toMatchObject({ status: 'failed', declinedCode: 'try_again', antifraud: { status: 'failed' } });
  });

  it('holds the money while the analysis is pending, even when capture is asked', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithAntifraud(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), analysed('11122233300')));
    expect(charge).toMatchObject({ status: 'pre_authorized', capture: true, capturedAmount: 0, antifraud: { status: 'pending' } });
  });

  it('skips the analysis when the merchant has no antifraud provider or the charge no fraudAnalysis', async () => {
    const clientId = randomUUID();
    const plain = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, plain.id, cardNumberEnding('1'), analysed('11122233305')));
    expect(charge.antifraud).toBeUndefined();
    expect(charge.status).toBe('authorized');
    const protectedMerchant = await merchantWithAntifraud(clientId);
    const unanalysed = await running.client.createCharge(cardCharge(clientId, protectedMerchant.id, cardNumberEnding('1')));
    expect(unanalysed.antifraud).toBeUndefined();
  });
});

describe('SetAntifraudStatus', () => {
  async function pendingCharge(capture: boolean) {
    const clientId = randomUUID();
    const merchant = await merchantWithAntifraud(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { capture, ...analysed('99900') }));
    expect(charge.status).toBe('pre_authorized');
    return { clientId, merchant, charge };
  }

  it('approved: captures a charge that asked for capture', async () => {
    const { clientId, charge } = await pendingCharge(true);
    const approved = await running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'approved' });
    expect(approved).toMatchObject({ status: 'authorized', capturedAmount: 1000, antifraud: { status: 'approved' } });
    expect(requestSummary(approved).map((r) => r.type)).toEqual(['antifraud', 'authorization', 'capture']);
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.charge.pre_authorized', 'payments.charge.authorized']);
  });

  it('refuses a capture while the analysis is pending', async () => {
    const { clientId, charge } = await pendingCharge(false);
    expect(await failureOf(running.client.captureCharge({ clientId, id: charge.id }))).toMatchObject({ kind: 'business_rule', businessCode: 'antifraud_pending' });
    await running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'approved' });
    expect(await running.client.captureCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: 1000 });
  });

  it('approved: keeps a pre-authorization that did not ask for capture', async () => {
    const { clientId, charge } = await pendingCharge(false);
    expect(await running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'approved' })).toMatchObject({
      status: 'pre_authorized',
      antifraud: { status: 'approved' },
    });
  });

  it.each([
    ['reproved', 'fraud_suspect'],
    ['failed', 'try_again'],
  ])('%s: lets the hold go and fails the charge', async (status, declinedCode) => {
    const { clientId, charge } = await pendingCharge(true);
    const decided = await running.client.setAntifraudStatus({ clientId, id: charge.id, status });
    expect(decided).toMatchObject({ status: 'failed', declinedCode, capturedAmount: 0, antifraud: { status } });
    expect(requestSummary(decided).map((r) => [r.type, r.status])).toEqual([
      ['antifraud', 'success'],
      ['authorization', 'success'],
      ['void', 'success'],
    ]);
  });

  it('decides a pending Pix: approved keeps it waiting for payment, reproved fails it', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWithAntifraud(clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id, analysed('0')));
    expect(pix).toMatchObject({ status: 'pending', antifraud: { status: 'pending' } });
    const approved = await running.client.setAntifraudStatus({ clientId, id: pix.id, status: 'approved' });
    expect(approved).toMatchObject({ status: 'pending', antifraud: { status: 'approved' } });
    const other = await running.client.createCharge(pixCharge(clientId, merchant.id, analysed('10')));
    expect(await running.client.setAntifraudStatus({ clientId, id: other.id, status: 'reproved' })).toMatchObject({ status: 'failed', declinedCode: 'fraud_suspect' });
  });

  it('a later decision replaces an earlier one; a captured charge keeps its status', async () => {
    const { clientId, charge } = await pendingCharge(true);
    await running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'approved' });
    const reproved = await running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'reproved' });
    expect(reproved).toMatchObject({ status: 'authorized', capturedAmount: 1000, antifraud: { status: 'reproved' } });
    expect(requestSummary(reproved).map((r) => r.type)).toEqual(['antifraud', 'authorization', 'capture']);
  });
});

describe('SetAntifraudStatus on a charge no antifraud provider analysed (the sandbox route)', () => {
  async function plainCharge(capture: boolean) {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { capture }));
    expect(charge.antifraud).toBeUndefined();
    return { clientId, merchant, charge };
  }

  it('approved: records the decision and keeps a pre-authorization as it is', async () => {
    const { clientId, charge } = await plainCharge(false);
    const approved = await running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'approved' });
    expect(approved).toMatchObject({ status: 'pre_authorized', capturedAmount: 0, antifraud: { status: 'approved', providerId: '' } });
    expect(requestSummary(approved).map((r) => r.type)).toEqual(['authorization']);
  });

  it.each([
    ['reproved', 'fraud_suspect'],
    ['failed', 'try_again'],
  ])('%s: voids an uncaptured charge at its provider and fails it', async (status, declinedCode) => {
    const { clientId, charge } = await plainCharge(false);
    const decided = await running.client.setAntifraudStatus({ clientId, id: charge.id, status });
    expect(decided).toMatchObject({ status: 'failed', declinedCode, capturedAmount: 0, antifraud: { status } });
    expect(requestSummary(decided).map((r) => [r.type, r.status])).toEqual([
      ['authorization', 'success'],
      ['void', 'success'],
    ]);
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.charge.pre_authorized', 'payments.charge.failed']);
  });

  it('reproved: fails a Pix waiting for payment', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    expect(pix.status).toBe('pending');
    expect(await running.client.setAntifraudStatus({ clientId, id: pix.id, status: 'reproved' })).toMatchObject({ status: 'failed', declinedCode: 'fraud_suspect' });
  });

  it('reproved: records the decision on a captured charge, which keeps its status and amounts', async () => {
    const { clientId, charge } = await plainCharge(true);
    expect(charge.status).toBe('authorized');
    const decided = await running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'reproved' });
    expect(decided).toMatchObject({ status: 'authorized', capturedAmount: 1000, antifraud: { status: 'reproved' } });
    expect(requestSummary(decided).map((r) => r.type)).toEqual(['authorization']);
  });

  it("answers not found for another client's charge", async () => {
    const { charge } = await plainCharge(false);
    expect(await failureOf(running.client.setAntifraudStatus({ clientId: randomUUID(), id: charge.id, status: 'reproved' }))).toMatchObject({ kind: 'not_found' });
  });

  it('refuses a status outside approved, reproved and failed', async () => {
    const { clientId, charge } = await plainCharge(false);
    const error = await failureOf(running.client.setAntifraudStatus({ clientId, id: charge.id, status: 'pending' }));
    expect(error.kind).toBe('validation');
  });
});
