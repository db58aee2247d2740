import { randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import {
  cardCharge,
  cardNumberEnding,
  chargeEventsOf,
  createMerchant,
  failureOf,
  inlineCard,
  paymentSource,
  pixCharge,
  startCharges,
  type RunningCharges,
} from '../support/charges';

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

describe('charge events in the outbox', () => {
  it('writes payments.charge.<status> for every change, with the whole charge as data', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const held = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { capture: false, amount: 800 }));
    const captured = await running.client.captureCharge({ clientId, id: held.id });
    const voided = await running.client.voidCharge({ clientId, id: held.id, splitRules: [] });
    const failed = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('12')));
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    const paid = await running.client.setSandboxChargeStatus({ clientId, id: pix.id, status: 'authorized' });

    const events = await chargeEventsOf(running.pool, clientId);
    expect(events.map((e) => [e.subject, e.payload.data.id])).toEqual([
      ['payments.charge.pre_authorized', held.id],
      ['payments.charge.authorized', held.id],
      ['payments.charge.voided', held.id],
      ['payments.charge.failed', failed.id],
      ['payments.charge.pending', pix.id],
      ['payments.charge.authorized', pix.id],
    ]);
    for (const event of events) {
      expect(event.payload).toMatchObject({ id: event.id, type: event.subject, clientId });
    }
    const shown: payments.Charge[] = [held, captured, voided, failed, pix, paid];
    events.forEach((event, i) => {
      const charge = shown[i]!;
      expect(event.payload.data).toMatchObject({
        id: charge.id,
        clientId,
        merchantId: merchant.id,
        status: charge.status,
        amount: charge.amount,
        capturedAmount: charge.capturedAmount,
        refundedAmount: charge.refundedAmount,
        currency: 'BRL',
        declinedCode: charge.declinedCode || null,
        providerType: 'SANDBOX',
        createdAt: charge.createdAt!.toISOString(),
        updatedAt: charge.updatedAt!.toISOString(),
      });
      const requests = event.payload.data.transactionRequests as Array<Record<string, unknown>>;
      expect(requests.map((r) => [r.requestType, r.requestStatus, r.idempotencyKey])).toEqual(
        charge.transactionRequests.map((r) => [r.requestType, r.requestStatus, r.idempotencyKey]),
      );
    });
    expect(events[3]!.payload.data).toMatchObject({ declinedCode: 'generic', transactionRequests: [{ declinedCode: 'generic', requestStatus: 'declined' }] });
  });

  it('writes no event for a refused change or a failed provider request', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 991, capture: false }));
    await failureOf(running.client.captureCharge({ clientId, id: charge.id }));
    await failureOf(running.client.captureCharge({ clientId, id: charge.id, amount: 5000 }));
    await failureOf(running.client.setSandboxChargeStatus({ clientId, id: charge.id, status: 'refund_pending' }));
    await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, '4111111111111112')));
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.charge.pre_authorized']);
  });
});

describe('card data never stored or shown', () => {
  it('keeps no card number or CVV in any column of any table, or in any response', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
      { name: 'antifraud', priority: 1, type: 'SANDBOX_ANTIFRAUD' },
    ]);
    const approved = { number: cardNumberEnding('1'), cvv: '739' };
    const checked = { number: cardNumberEnding('0', '522222'), cvv: '470' };
    const timeout = { number: cardNumberEnding('6'), cvv: '864' };
    const declined = { number: cardNumberEnding('52'), cvv: '593' };
    const tokenized = { number: cardNumberEnding('4'), cvv: '718' };
    const saved = { number: cardNumberEnding('1'), cvv: '926' };
    const cards = [approved, checked, timeout, declined, tokenized, saved];
    const responses: unknown[] = [];
    const keep = async <T>(call: Promise<T>) => {
      const value = await call;
      responses.push(value);
      return value;
    };
    const inline = (card: { number: string; cvv: string }, overrides: Partial<payments.CreateChargeRequest> = {}) =>
      cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ card: inlineCard(card.number, card.cvv) }), ...overrides });

    const first = await keep(running.client.createCharge(inline(approved, { capture: false })));
    await keep(running.client.captureCharge({ clientId, id: first.id, amount: 600 }));
    await keep(running.client.voidCharge({ clientId, id: first.id, amount: 100, splitRules: [] }));
    await keep(running.client.createCharge(inline(checked, { fraudAnalysis: { customer: { identity: '98765432100' } } })));
    await keep(running.client.createCharge(inline(timeout)));
    await keep(running.client.createCharge(inline(declined), { idempotencyKey: randomUUID() }));
    const token = await keep(running.client.createToken({ clientId, card: inlineCard(tokenized.number, tokenized.cvv) }));
    await keep(running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ sourceType: 'token', tokenId: token.tokenId }) })));
    const savedToken = await keep(running.client.createToken({ clientId, card: inlineCard(saved.number, saved.cvv) }));
    const card = await keep(running.client.createCard({ clientId, tokenId: savedToken.tokenId, merchantId: '', cvvCheck: false }));
    await keep(running.client.createCharge(cardCharge(clientId, merchant.id, '', { paymentSource: paymentSource({ cardId: card.id, cardCvv: saved.cvv }) })));
    await keep(running.client.setupThreeDs({ clientId, sourceType: 'card', cardId: card.id, tokenId: '' }));
    const spy = jest.spyOn(SandboxProvider.prototype, 'authorize');
    await keep(running.client.listCharges({ clientId, status: [], paymentType: [], providerType: [] }));
    expect(spy).not.toHaveBeenCalled();

    const text = JSON.stringify(responses);
    const { rows: tables } = await running.pool.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['charges', 'transaction_requests', 'outbox', 'idempotency_keys', 'card_tokens', 'cards']));
    const stored: string[] = [];
    for (const { table_name: table, column_name: column } of tables) {
      const { rows } = await running.pool.query<{ value: string | null }>(`SELECT "${column}"::text AS value FROM "${table}"`);
      for (const row of rows) if (row.value !== null) stored.push(`${table}.${column}=${row.value}`);
    }
    const everything = [text, ...stored];
    expect(stored.some((s) => s.startsWith('charges.') && s.includes(approved.number.slice(-4)))).toBe(true);
    for (const { number, cvv } of cards) {
      // A CVV kept in clear would stand alone or as a JSON string; the same digits inside a timestamp
      // (`03:10:03.593+00`), a decimal or an id are not one.
      const cvvAlone = new RegExp(`(?<![0-9A-Za-z.:+-])${cvv}(?![0-9A-Za-z.:+-])`);
      for (const value of everything) {
        expect(value.includes(number) ? `${number} in ${value.slice(0, 80)}` : '').toBe('');
        expect(cvvAlone.test(value) ? `${cvv} in ${value.slice(0, 200)}` : '').toBe('');
      }
    }
    expect(text).not.toMatch(/cardNumber|cardCvv/);
  });
});
