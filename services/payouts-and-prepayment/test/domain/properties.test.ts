import fc from 'fast-check';
import { addDays, brasiliaDate, BusinessCalendar, daysBetween } from '../../src/domain/calendar';
import {
  ACCOUNTS,
  availableAccount,
  balanceOf,
  capturePosting,
  isBalanced,
  payoutPosting,
  prepaymentPosting,
  receivableAccount,
  receivableRemaining,
  refundPosting,
  settlementPosting,
  type Posting,
  type PostingLine,
} from '../../src/domain/ledger';
import { allocate, sum } from '../../src/domain/money';
import { DEFAULT_FEES, DEFAULT_SETTLEMENT_DAYS, PAYMENT_TYPES, type PaymentType, type Plan } from '../../src/domain/plan';
import { prepaymentFee } from '../../src/domain/prepayment';
import { buildReceivables, type CapturedCharge, type SplitRuleInput } from '../../src/domain/receivables';
import { applyOffsets, planRefund, type OpenReceivable } from '../../src/domain/refunds';

/**
 * The whole life of random charges through the ledger: capture, settlements and prepayments on the way, several
 * refunds (pro rata or by the refund's own split), payouts. Every posting balances, nothing is created or lost, and
 * the balances read from the lines equal the sums of the parts.
 */

const calendar = new BusinessCalendar();
const SELLERS = ['s1', 's2', 's3', 's4'] as const;
type Receiver = string | null;
type PlanPart = Pick<Plan, 'fees' | 'settlementDays'>;

const planArb: fc.Arbitrary<PlanPart> = fc.oneof(
  fc.constant<PlanPart>({ fees: DEFAULT_FEES, settlementDays: DEFAULT_SETTLEMENT_DAYS }),
  fc
    .record({
      percentages: fc.array(fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 10000 })), { minLength: 5, maxLength: 5 }),
      fixed: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5000 })), { minLength: 5, maxLength: 5 }),
      days: fc.array(fc.integer({ min: 0, max: 365 }), { minLength: 5, maxLength: 5 }),
    })
    .map(({ percentages, fixed, days }) => ({
      fees: PAYMENT_TYPES.map((paymentType, i) => ({
        paymentType,
        installmentsFrom: 1,
        installmentsTo: paymentType === 'credit' ? 24 : 1,
        percentage: percentages[i]!,
        fixedAmount: fixed[i]!,
      })),
      settlementDays: Object.fromEntries(PAYMENT_TYPES.map((t, i) => [t, days[i]!])) as Record<PaymentType, number>,
    })),
);

const ruleArb = fc.record({
  sellerId: fc.constantFrom(...SELLERS),
  byPercentage: fc.boolean(),
  weight: fc.integer({ min: 0, max: 1000 }),
});

const chargeArb = fc
  .record({
    paymentType: fc.constantFrom(...PAYMENT_TYPES),
    installments: fc.integer({ min: 1, max: 12 }),
    amount: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1_000_000_000 })),
    capturedPart: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
    rules: fc.array(ruleArb, { maxLength: 5 }),
    restWeight: fc.integer({ min: 0, max: 3000 }),
    overAsk: fc.integer({ min: 0, max: 9 }),
    capturedAt: fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2028-12-31T23:59:59Z'), noInvalidDate: true }),
  })
  .map((c): CapturedCharge => {
    const capturedAmount = Math.max(1, Math.floor(c.amount * c.capturedPart));
    // The rules take parts of the charge (the rest to the main account); rarely they ask for more than all of it.
    const parts = allocate(c.amount, [...c.rules.map((r) => r.weight), c.restWeight]);
    const factor = c.overAsk === 0 ? 3 : 1;
    const splitRules: SplitRuleInput[] = c.rules.map((r, i) =>
      r.byPercentage ? { sellerId: r.sellerId, percentage: Math.floor((parts[i]! * 10000 * factor) / c.amount) } : { sellerId: r.sellerId, amount: parts[i]! * factor },
    );
    return { chargeId: 'ch', paymentType: c.paymentType, installments: c.installments, amount: c.amount, capturedAmount, splitRules, capturedAt: c.capturedAt };
  });

const stepArb = fc.record({
  weight: fc.integer({ min: 1, max: 1000 }),
  bySplit: fc.boolean(),
  splitWeights: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 6 }),
  strangerGetsPart: fc.boolean(),
  chargeback: fc.boolean(),
  settleUpTo: fc.integer({ min: -5, max: 400 }),
  prepayUpTo: fc.integer({ min: -5, max: 400 }),
});

interface Model extends OpenReceivable {
  prepaid: boolean;
}

describe('the ledger over random charges (properties)', () => {
  it('builds receivables that add up to the capture, each with 0 ≤ fee ≤ gross', () => {
    fc.assert(
      fc.property(chargeArb, fc.dictionary(fc.constantFrom('s1', 's2', 's3', 's4', 'main'), planArb), (charge, plans) => {
        const planOf = (r: Receiver): PlanPart => plans[r ?? 'main'] ?? { fees: DEFAULT_FEES, settlementDays: DEFAULT_SETTLEMENT_DAYS };
        const drafts = buildReceivables(charge, planOf, calendar);
        expect(sum(drafts.map((d) => d.gross))).toBe(charge.capturedAmount);
        const captureDate = brasiliaDate(charge.capturedAt);
        for (const d of drafts) {
          expect(d.gross).toBeGreaterThan(0);
          expect(d.fee).toBeGreaterThanOrEqual(0);
          expect(d.net).toBe(d.gross - d.fee);
          expect(d.net).toBeGreaterThanOrEqual(0);
          expect(calendar.isBusinessDay(d.settlementDate)).toBe(true);
          const due = addDays(captureDate, planOf(d.receiver).settlementDays[d.paymentType] * (d.paymentType === 'credit' ? d.installment : 1));
          expect(d.settlementDate).toBe(calendar.onOrAfter(due));
          expect(d.totalInstallments).toBe(charge.paymentType === 'credit' ? charge.installments : 1);
        }
        // per receiver: installments 1..n, gross within one unit of each other apart from installment 1's leftover
        const receivers = [...new Set(drafts.map((d) => d.receiver))];
        for (const r of receivers) {
          const mine = drafts.filter((d) => d.receiver === r);
          expect(mine.map((d) => d.installment)).toEqual(mine.map((_, i) => i + 1));
          expect(new Set(mine.slice(1).map((d) => d.gross)).size).toBeLessThanOrEqual(1);
        }
        // receivers in rule order, the main account last
        const ruleOrder = [...new Set(charge.splitRules.map((s) => s.sellerId))];
        const sellers = receivers.filter((r): r is string => r !== null);
        expect(sellers).toEqual(ruleOrder.filter((s) => sellers.includes(s)));
        if (receivers.includes(null)) expect(receivers[receivers.length - 1]).toBeNull();
      }),
      { numRuns: 300, seed: 20260510 },
    );
  });

  it('keeps every posting balanced and the balances equal to the parts through captures, refunds, settlements, prepayments and payouts', () => {
    fc.assert(
      fc.property(
        chargeArb,
        fc.dictionary(fc.constantFrom('s1', 's2', 's3', 's4', 'main'), planArb),
        fc.array(stepArb, { maxLength: 4 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 10000 }),
        (charge, plans, steps, restWeight, monthlyRate) => {
          const planOf = (r: Receiver): PlanPart => plans[r ?? 'main'] ?? { fees: DEFAULT_FEES, settlementDays: DEFAULT_SETTLEMENT_DAYS };
          const drafts = buildReceivables(charge, planOf, calendar);
          const postings: Posting[] = [];
          const post = (p: Posting): void => {
            expect(isBalanced(p)).toBe(true);
            postings.push(p);
          };
          const withIds = drafts.map((d, i) => ({ ...d, id: `rcv${i}` }));
          post(capturePosting(charge.chargeId, withIds));
          let model: Model[] = withIds.map((d) => ({
            id: d.id,
            receiver: d.receiver,
            gross: d.gross,
            fee: d.fee,
            net: d.net,
            settled: false,
            prepaid: false,
            settlementDate: d.settlementDate,
            installment: d.installment,
          }));
          const receivers = [...new Set(model.map((m) => m.receiver))];
          const available = new Map<Receiver, number>();
          const addAvailable = (r: Receiver, amount: number): void => void available.set(r, (available.get(r) ?? 0) + amount);
          let prepaymentFees = 0;
          let offsetGross = 0;
          let debitTotal = 0;
          const captureDate = brasiliaDate(charge.capturedAt);

          const refunds = allocate(charge.capturedAmount, [...steps.map((s) => s.weight), restWeight]).slice(0, steps.length);
          steps.forEach((step, n) => {
            // Prepay some future receivables: the fee leaves the receivable, the rest settles at once.
            const prepayDate = addDays(captureDate, step.prepayUpTo);
            const toPrepay = model.filter((m) => !m.settled && m.settlementDate <= prepayDate && m.net > 0);
            if (toPrepay.length > 0) {
              const items = toPrepay.map((m) => ({
                receivableId: m.id,
                receiver: m.receiver,
                fee: prepaymentFee(m.net, monthlyRate, Math.max(0, daysBetween(captureDate, m.settlementDate))),
              }));
              post(prepaymentPosting(`pp${n}`, items));
              for (const item of items) {
                const m = toPrepay.find((x) => x.id === item.receivableId)!;
                prepaymentFees += item.fee;
                post(settlementPosting(m.id, m.receiver, m.net - item.fee));
                addAvailable(m.receiver, m.net - item.fee);
                m.settled = true;
                m.prepaid = true;
              }
            }
            // Settle what is due.
            const settleDate = addDays(captureDate, step.settleUpTo);
            for (const m of model) {
              if (m.settled || m.settlementDate > settleDate) continue;
              post(settlementPosting(m.id, m.receiver, m.net));
              addAvailable(m.receiver, m.net);
              m.settled = true;
            }
            // Refund, pro rata or by the refund's own split.
            const amount = refunds[n]!;
            let perReceiver: Map<Receiver, number> | undefined;
            if (step.bySplit) {
              const targets: Receiver[] = step.strangerGetsPart ? [...receivers, 'stranger'] : receivers;
              const shares = allocate(
                amount,
                targets.map((_, i) => step.splitWeights[i % step.splitWeights.length]!),
              );
              perReceiver = new Map(targets.map((t, i) => [t, shares[i]!]));
            }
            const plan = planRefund(amount, model, perReceiver);
            expect(sum(plan.offsets.map((o) => o.gross)) + sum(plan.debits.map((d) => d.amount))).toBe(amount);
            for (const o of plan.offsets) {
              const m = model.find((x) => x.id === o.receivableId)!;
              expect(m.settled).toBe(false);
              expect(o.receiver).toBe(m.receiver);
              expect(o.net).toBe(o.gross - o.fee);
              expect(o.fee).toBeGreaterThanOrEqual(0);
              expect(o.fee).toBeLessThanOrEqual(o.gross);
            }
            if (perReceiver) {
              for (const [r, share] of perReceiver) {
                const taken = sum(plan.offsets.filter((o) => o.receiver === r).map((o) => o.gross)) + sum(plan.debits.filter((d) => d.receiver === r).map((d) => d.amount));
                expect(taken).toBe(share);
              }
            }
            post(refundPosting(`refund:${n}`, step.chargeback ? 'chargeback' : 'refund', plan.offsets, plan.debits));
            for (const d of plan.debits) addAvailable(d.receiver, -d.amount);
            offsetGross += sum(plan.offsets.map((o) => o.gross));
            debitTotal += sum(plan.debits.map((d) => d.amount));
            model = applyOffsets(model, plan.offsets);
            for (const m of model) {
              expect(m.gross).toBeGreaterThanOrEqual(0);
              expect(m.fee).toBeGreaterThanOrEqual(0);
              expect(m.net).toBe(m.gross - m.fee);
              expect(m.net).toBeGreaterThanOrEqual(0);
            }
          });

          const refunded = sum(refunds);
          const lines = (): PostingLine[] => postings.flatMap((p) => p.lines);
          let all = lines();
          // What the ledger says equals the sums of the parts.
          expect(sum(all.map((l) => l.amount))).toBe(0);
          expect(balanceOf(all, ACCOUNTS.clearing)).toBe(refunded - charge.capturedAmount);
          expect(balanceOf(all, ACCOUNTS.fees)).toBe(sum(model.map((m) => m.fee)));
          expect(balanceOf(all, ACCOUNTS.prepaymentFees)).toBe(prepaymentFees);
          for (const m of model) expect(receivableRemaining(all, m.id)).toBe(m.settled ? 0 : m.net);
          for (const r of [...receivers, 'stranger']) {
            expect(balanceOf(all, receivableAccount(r))).toBe(sum(model.filter((m) => m.receiver === r && !m.settled).map((m) => m.net)));
            expect(balanceOf(all, availableAccount(r))).toBe(available.get(r) ?? 0);
          }
          // The gross left on the receivables plus what offsets took back make the capture; offsets and debits make the refunds.
          expect(sum(model.map((m) => m.gross)) + offsetGross).toBe(charge.capturedAmount);
          expect(offsetGross + debitTotal).toBe(refunded);
          const refundClearing = postings.filter((p) => p.kind === 'refund' || p.kind === 'chargeback').flatMap((p) => p.lines).filter((l) => l.account === ACCOUNTS.clearing);
          expect(0 - sum(refundClearing.map((l) => l.amount))).toBe(refunded);

          // Pay out every positive available balance: it reaches 0 and the transfers add up.
          let paid = 0;
          for (const [r, amount] of available) {
            if (amount <= 0) continue;
            post(payoutPosting(`batch:${r ?? 'main'}`, r, amount));
            paid += amount;
          }
          all = lines();
          for (const [r, amount] of available) expect(balanceOf(all, availableAccount(r))).toBe(Math.min(amount, 0));
          expect(balanceOf(all, ACCOUNTS.transfers)).toBe(paid);
          expect(postings.every(isBalanced)).toBe(true);
          expect(new Set(postings.map((p) => p.reference)).size).toBe(postings.length);
        },
      ),
      { numRuns: 300, seed: 20260511 },
    );
  });
});
