import { randomUUID } from 'node:crypto';
import { withTransaction, type Queryable } from '@platform/kit';
import { eventually, testNatsUrl } from '@platform/testkit';
import { connect } from 'nats';
import { applyChargeEvent, type ChargeEventData } from '../../src/app/applyChargeEvent';
import { applyChargeEvents } from '../../src/app/applyChargeEvents';
import { applySellerEvent } from '../../src/app/applySellerEvent';
import { DEFAULT_FEES, DEFAULT_SETTLEMENT_DAYS } from '../../src/domain/plan';
import { chargeConsumer, type ChargeEvent } from '../../src/events/consumers';
import { startPayouts, type RunningPayouts } from '../support';

/**
 * The charge consumer applies the events that arrived together as a batch (captures booked together, the other events
 * one by one in order): the ledger is the one applying them one by one gives, in a number of statements that does not
 * grow with the batch.
 */
let running: RunningPayouts;

beforeAll(async () => {
  running = await startPayouts({ now: new Date('2026-03-02T13:00:00.000Z') });
});

afterAll(async () => {
  await running.stop();
});

const base = new Date('2026-03-02T13:00:00.000Z').getTime();

/** An event of the public charge `data` of `clientId`, `minute` minutes after the first. */
function envelope(clientId: string, data: ChargeEventData, minute: number, type = 'payments.charge.authorized'): ChargeEvent {
  return { id: randomUUID(), type, occurredAt: new Date(base + minute * 60_000).toISOString(), clientId, data: { sessionId: null, ...data } };
}

const charge = (id: string, overrides: Partial<ChargeEventData> = {}): ChargeEventData => ({
  id,
  status: 'authorized',
  amount: 10_000,
  capturedAmount: 10_000,
  refundedAmount: 0,
  providerType: 'SANDBOX',
  paymentMethod: { paymentType: 'credit', installments: 1 },
  splitRules: [],
  ...overrides,
});

const refund = (id: string, amount: number) => ({ id, requestType: 'refund', requestStatus: 'success', amount, splitRules: null, updatedAt: null });

/** The consumer as the service wires it, under a durable of this test's own. */
const consumer = chargeConsumer(`payouts_batch_test_${randomUUID().slice(0, 8)}`, (tx, events) =>
  applyChargeEvents(
    running.deps,
    tx,
    events.map((e) => ({ clientId: e.clientId, data: e.data, occurredAt: new Date(e.occurredAt) })),
  ),
);

/**
 * What the kit's consumer does with events that arrived together: records their ids and applies those not yet
 * processed (each once) in one transaction; when that fails, applies each event in a transaction of its own, a
 * failing one left for redelivery. Answers how the batch went.
 */
async function consume(events: ChargeEvent[]): Promise<'batch' | 'one by one'> {
  const handleBatch = consumer.handleBatch!;
  try {
    await withTransaction(running.pool, async (tx) => {
      const { rows } = await tx.query<{ event_id: string }>(
        'INSERT INTO processed_events (consumer, event_id) SELECT $1, id FROM unnest($2::uuid[]) AS id ON CONFLICT DO NOTHING RETURNING event_id',
        [consumer.durable, events.map((e) => e.id)],
      );
      const fresh = new Set(rows.map((r) => r.event_id));
      await handleBatch(
        events.filter((e) => fresh.delete(e.id)),
        tx,
      );
    });
    return 'batch';
  } catch {
    for (const event of events) {
      await withTransaction(running.pool, async (tx) => {
        const fresh = await tx.query('INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id', [consumer.durable, event.id]);
        if (fresh.rowCount === 0) return;
        await handleBatch([event], tx);
      }).catch(() => undefined);
    }
    return 'one by one';
  }
}

/** The same events applied one by one, each in a transaction of its own, by the per-event use case. */
async function oneByOne(events: ChargeEvent[]): Promise<void> {
  for (const e of events) await withTransaction(running.pool, (tx) => applyChargeEvent(running.deps, tx, e.clientId, e.data, new Date(e.occurredAt)));
}

/** The same events for another client: the same charge and seller ids (the ledger keys them by client). */
const forClient = (clientId: string, events: ChargeEvent[]) => events.map((e) => ({ ...e, id: randomUUID(), clientId }));

/**
 * A client's whole ledger without what differs between two runs (generated ids and the client): charges, receivables,
 * postings, entries in the order written, debits.
 */
async function ledgerOf(clientId: string) {
  const q = async (sql: string) => (await running.pool.query(sql, [clientId])).rows;
  const receivableKey = "(SELECT r.charge_id || '/' || coalesce(r.receiver_id::text, 'main') || '/' || r.installment FROM receivables r WHERE r.id = e.receivable_id)";
  return {
    charges: await q(
      'SELECT charge_id, payment_type, installments, captured_amount, refunded_amount, charged_back, created_at, refund_request_ids FROM ledger_charges WHERE client_id = $1 ORDER BY charge_id',
    ),
    receivables: await q(
      `SELECT charge_id, receiver_id, installment, total_installments, payment_type, gross, fee, net, original_settlement_date, settlement_date, status, created_at
       FROM receivables WHERE client_id = $1 ORDER BY charge_id, receiver_id NULLS LAST, installment`,
    ),
    postings: await q('SELECT kind, reference, created_at FROM postings WHERE client_id = $1 ORDER BY reference'),
    entries: await q(
      `SELECT p.reference, e.account, e.amount, ${receivableKey} AS receivable, e.created_at
       FROM ledger_entries e JOIN postings p ON p.id = e.posting_id WHERE e.client_id = $1 ORDER BY p.reference, e.id`,
    ),
    debits: await q('SELECT receiver_id, charge_id, type, amount, created_at FROM receiver_debits WHERE client_id = $1 ORDER BY charge_id, type, receiver_id NULLS LAST'),
  };
}

/** A client with two sellers, the first on a plan of its own (credit 1.00 %, settled in 2 days), the second on the default. */
async function clientWithSellers(sellers: [string, string]): Promise<string> {
  const clientId = randomUUID();
  const planId = randomUUID();
  const now = running.clock.now();
  await running.deps.planStore.insert(running.pool, {
    id: planId,
    clientId,
    name: 'own',
    isDefault: false,
    fees: DEFAULT_FEES.map((f) => ({ ...f, percentage: 100 })),
    settlementDays: { ...DEFAULT_SETTLEMENT_DAYS, credit: 2 },
    prepaymentMonthlyRate: 0,
    createdAt: now,
    updatedAt: now,
  });
  await withTransaction(running.pool, async (tx) => {
    await applySellerEvent(running.deps, tx, clientId, { id: sellers[0], status: 'active', planId }, now);
    await applySellerEvent(running.deps, tx, clientId, { id: sellers[1], status: 'active', planId: null }, now);
  });
  return clientId;
}

async function count(sql: string, values: unknown[]): Promise<number> {
  const { rows } = await running.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values);
  return rows[0]!.n;
}

it('gives a mixed batch the same ledger as its events applied one by one', async () => {
  const sellers: [string, string] = [randomUUID(), randomUUID()];
  const split = randomUUID();
  const debit = randomUUID();
  const pix = randomUUID();
  const chargedBack = randomUUID();
  const pending = randomUUID();
  const other = randomUUID();
  const early = randomUUID();
  const old = randomUUID();
  const splitRules = [
    { sellerId: sellers[0], amount: 7_000 },
    { sellerId: sellers[1], percentage: 2_000 },
  ];
  // Taken in before the batch: refunded in full within it.
  const before = (clientId: string) => [envelope(clientId, charge(old, { paymentMethod: { paymentType: 'credit', installments: 2 } }), 0)];
  const batch = (clientId: string) => [
    envelope(clientId, charge(split, { paymentMethod: { paymentType: 'credit', installments: 3 }, splitRules }), 1),
    envelope(clientId, charge(debit, { amount: 2_990, capturedAmount: 2_990, paymentMethod: { paymentType: 'debit' } }), 2),
    envelope(clientId, charge(pix, { amount: 990, capturedAmount: 990, status: 'paid', paymentMethod: { paymentType: 'pix' } }), 3, 'payments.charge.paid'),
    envelope(clientId, charge(pending, { status: 'pending', capturedAmount: 0, paymentMethod: { paymentType: 'pix' } }), 4, 'payments.charge.created'),
    envelope(clientId, charge(other, { providerType: 'OTHER' }), 5),
    // A refund of 1,000 of the split charge, after its capture in the same batch.
    envelope(clientId, charge(split, { status: 'partially_refunded', paymentMethod: { paymentType: 'credit', installments: 3 }, splitRules, refundedAmount: 1_000, transactionRequests: [refund('r-split', 1_000)] }), 6, 'payments.charge.refunded'),
    // The debit charge's capture delivered again: nothing more.
    envelope(clientId, charge(debit, { amount: 2_990, capturedAmount: 2_990, paymentMethod: { paymentType: 'debit' } }), 7, 'payments.charge.captured'),
    envelope(clientId, charge(chargedBack), 8),
    envelope(clientId, charge(chargedBack, { status: 'charged_back' }), 9, 'payments.charge.charged_back'),
    // A cancellation that arrives before the capture it undoes: it takes the charge in and gives it all back.
    envelope(clientId, charge(early, { status: 'voided', refundedAmount: 10_000 }), 10, 'payments.charge.voided'),
    envelope(clientId, charge(early), 11),
    envelope(clientId, charge(old, { status: 'refunded', paymentMethod: { paymentType: 'credit', installments: 2 }, refundedAmount: 10_000, transactionRequests: [refund('r-old', 10_000)] }), 12, 'payments.charge.refunded'),
  ];

  const batched = await clientWithSellers(sellers);
  const single = await clientWithSellers(sellers);
  await oneByOne(before(batched));
  await oneByOne(before(single));
  expect(await consume(batch(batched))).toBe('batch');
  await oneByOne(forClient(single, batch(batched)));

  const ledger = await ledgerOf(batched);
  expect(ledger).toEqual(await ledgerOf(single));
  // What the batch did, in short: six charges taken in, every refund and chargeback posted once, nothing of the others.
  expect(ledger.charges.map((c) => c.charge_id).sort()).toEqual([split, debit, pix, chargedBack, early, old].sort());
  expect(ledger.postings.map((p) => p.reference).sort()).toEqual(
    [split, debit, pix, chargedBack, early, old].map((c) => `capture:${c}`).concat([`refund:${split}:1000`, `chargeback:${chargedBack}`, `refund:${early}:10000`, `refund:${old}:10000`]).sort(),
  );
  expect(await count('ledger_charges WHERE client_id = $1 AND charge_id = ANY($2::uuid[])', [batched, [pending, other]])).toBe(0);
  expect(await count('(SELECT posting_id FROM ledger_entries WHERE client_id = $1 GROUP BY posting_id HAVING sum(amount) <> 0) AS unbalanced', [batched])).toBe(0);
});

it('applies an event that comes twice in a batch once', async () => {
  const clientId = randomUUID();
  const a = randomUUID();
  const b = randomUUID();
  const capture = envelope(clientId, charge(a, { paymentMethod: { paymentType: 'credit', installments: 2 } }), 0);
  const refunded = envelope(clientId, charge(b, { refundedAmount: 4_000, transactionRequests: [refund('r-b', 4_000)] }), 1, 'payments.charge.refunded');
  expect(await consume([capture, refunded, capture, refunded])).toBe('batch');
  // The same events under new ids (published again), given twice to the use case in one batch: nothing more.
  const again = [capture, refunded, capture, refunded].map((e) => ({ ...e, id: randomUUID() }));
  expect(await consume(again)).toBe('batch');

  expect(await count('receivables WHERE client_id = $1 AND charge_id = $2', [clientId, a])).toBe(2);
  expect(await count('postings WHERE client_id = $1', [clientId])).toBe(3);
  expect(await count('ledger_entries WHERE client_id = $1', [clientId])).toBe(3 * 2 + 3 + 3);
  const { rows } = await running.pool.query('SELECT refunded_amount, refund_request_ids FROM ledger_charges WHERE client_id = $1 AND charge_id = $2', [clientId, b]);
  expect(rows).toEqual([{ refunded_amount: '4000', refund_request_ids: ['r-b'] }]);
});

it('falls back to one by one when an event of the batch fails: the good ones are applied, the failing one is not', async () => {
  const clientId = randomUUID();
  const good = [randomUUID(), randomUUID(), randomUUID()];
  const bad = randomUUID();
  const events = [
    envelope(clientId, charge(good[0]!), 0),
    // A charge of amount 0 that captured something: its receivables cannot be built, so the event fails.
    envelope(clientId, charge(bad, { amount: 0, capturedAmount: 500 }), 1),
    envelope(clientId, charge(good[1]!), 2),
    envelope(clientId, charge(good[2]!, { refundedAmount: 2_500 }), 3, 'payments.charge.refunded'),
  ];
  expect(await consume(events)).toBe('one by one');

  const { rows } = await running.pool.query<{ charge_id: string; refunded_amount: string }>('SELECT charge_id, refunded_amount FROM ledger_charges WHERE client_id = $1', [clientId]);
  expect(rows.map((r) => [r.charge_id, Number(r.refunded_amount)]).sort()).toEqual(
    [
      [good[0], 0],
      [good[1], 0],
      [good[2], 2_500],
    ].sort(),
  );
  expect(await count('receivables WHERE client_id = $1 AND charge_id = $2', [clientId, bad])).toBe(0);
  expect(await count('postings WHERE client_id = $1', [clientId])).toBe(4);
  const processed = await running.pool.query<{ event_id: string }>('SELECT event_id FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])', [
    consumer.durable,
    events.map((e) => e.id),
  ]);
  expect(processed.rows.map((r) => r.event_id).sort()).toEqual([events[0]!.id, events[2]!.id, events[3]!.id].sort());
});

it('keeps the order of a charge’s events in a batch: a capture, then its refund, then its chargeback', async () => {
  const clientId = randomUUID();
  const chargeId = randomUUID();
  const installments = { paymentType: 'credit', installments: 2 };
  const events = [
    envelope(clientId, charge(chargeId, { paymentMethod: installments }), 0),
    envelope(clientId, charge(chargeId, { paymentMethod: installments, status: 'partially_refunded', refundedAmount: 3_000, transactionRequests: [refund('r-1', 3_000)] }), 1, 'payments.charge.refunded'),
    envelope(clientId, charge(chargeId, { paymentMethod: installments, status: 'charged_back', refundedAmount: 3_000, transactionRequests: [refund('r-1', 3_000)] }), 2, 'payments.charge.charged_back'),
  ];
  expect(await consume(events)).toBe('batch');

  // The capture first (receivables dated by it), then the refund of 3,000, then the chargeback of the 7,000 left.
  const { rows } = await running.pool.query<{ kind: string; reference: string; created_at: Date; clearing: string }>(
    `SELECT p.kind, p.reference, p.created_at, sum(e.amount) FILTER (WHERE e.account = 'acquirer:clearing') AS clearing
     FROM postings p JOIN ledger_entries e ON e.posting_id = p.id WHERE p.client_id = $1 GROUP BY p.id ORDER BY p.created_at`,
    [clientId],
  );
  expect(rows.map((r) => [r.kind, r.reference, r.created_at.toISOString(), Number(r.clearing)])).toEqual([
    ['capture', `capture:${chargeId}`, events[0]!.occurredAt, 10_000],
    ['refund', `refund:${chargeId}:3000`, events[1]!.occurredAt, -3_000],
    ['chargeback', `chargeback:${chargeId}`, events[2]!.occurredAt, -7_000],
  ]);
  const charged = await running.pool.query('SELECT refunded_amount, charged_back, created_at FROM ledger_charges WHERE client_id = $1', [clientId]);
  expect(charged.rows).toEqual([{ refunded_amount: '3000', charged_back: true, created_at: new Date(events[0]!.occurredAt) }]);
});

it('books a batch of 50 captures in as many statements as a batch of 1', async () => {
  const clientId = randomUUID();
  // The client's first charge makes its default plan; the batches measured come after it.
  expect(await consume([envelope(clientId, charge(randomUUID()), 0)])).toBe('batch');

  /** The statements the handler runs for a batch, counted by wrapping the transaction's query. */
  const statementsOf = async (events: ChargeEvent[]): Promise<number> => {
    let statements = 0;
    await withTransaction(running.pool, async (tx) => {
      const counted: Queryable = {
        query: (text, values) => {
          statements += 1;
          return tx.query(text, values);
        },
      };
      await consumer.handleBatch!(events, counted);
    });
    return statements;
  };
  const captures = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) =>
      envelope(clientId, charge(randomUUID(), { amount: 1_990, capturedAmount: 1_990, paymentMethod: { paymentType: 'credit', installments: 1 + (i % 3) } }), from + i),
    );
  const one = captures(1, 1);
  const fifty = captures(50, 2);
  const statementsOfOne = await statementsOf(one);
  const statementsOfFifty = await statementsOf(fifty);
  expect(statementsOfFifty).toBe(statementsOfOne);
  // The plans of the receivers, then the charges with their receivables, postings and entries.
  expect(statementsOfOne).toBe(2);
  expect(await count('ledger_charges WHERE client_id = $1', [clientId])).toBe(52);
  expect(await count('receivables WHERE client_id = $1', [clientId])).toBe(1 + 1 + [...Array(50).keys()].reduce((n, i) => n + 1 + (i % 3), 0));
  expect(await count('postings WHERE client_id = $1', [clientId])).toBe(52);
  // Delivered again, the same captures book nothing more, in the same statements.
  expect(await statementsOf(fifty.map((e) => ({ ...e, id: randomUUID() })))).toBe(2);
  expect(await count('postings WHERE client_id = $1', [clientId])).toBe(52);
});

it('applies through the service\'s own consumer a capture, its refund and the capture again, published together', async () => {
  const clientId = randomUUID();
  const chargeId = randomUUID();
  const capture = envelope(clientId, charge(chargeId), 0);
  const events = [
    capture,
    envelope(clientId, charge(chargeId, { status: 'partially_refunded', refundedAmount: 1_500, transactionRequests: [refund('r-1', 1_500)] }), 1, 'payments.charge.refunded'),
    { ...capture, id: randomUUID(), type: 'payments.charge.captured' },
  ];
  const nc = await connect({ servers: testNatsUrl() });
  try {
    const js = nc.jetstream();
    for (const e of events) await js.publish(e.type, Buffer.from(JSON.stringify(e)), { msgID: e.id });
    const config = running.service.runtime.config as { PAYOUTS_CHARGES_DURABLE: string };
    await eventually(async () => {
      const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])', [
        config.PAYOUTS_CHARGES_DURABLE,
        events.map((e) => e.id),
      ]);
      return rows[0]!.n === events.length ? true : undefined;
    }, 'the three events processed');
  } finally {
    await nc.drain();
  }
  const { rows } = await running.pool.query<{ reference: string; created_at: Date }>('SELECT reference, created_at FROM postings WHERE client_id = $1 ORDER BY created_at', [clientId]);
  expect(rows.map((r) => [r.reference, r.created_at.toISOString()])).toEqual([
    [`capture:${chargeId}`, events[0]!.occurredAt],
    [`refund:${chargeId}:1500`, events[1]!.occurredAt],
  ]);
});
