import fc from 'fast-check';
import { minorUnits } from '@platform/api-model';
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
import { DEFAULT_FEES, DEFAULT_SETTLEMENT_DAYS, feeRuleFor, MAX_INSTALLMENTS, PAYMENT_TYPES, type PaymentType, type Plan } from '../../src/domain/plan';
import { prepaymentFee } from '../../src/domain/prepayment';
import { buildReceivables, type CapturedCharge, type SplitRuleInput } from '../../src/domain/receivables';
import { applyOffsets, planRefund, planRefundParts, refundParts, type OpenReceivable, type RefundRequest } from '../../src/domain/refunds';

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
    installments: fc.integer({ min: 1, max: MAX_INSTALLMENTS }),
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
    const parts = allocate(minorUnits(c.amount), [...c.rules.map((r) => r.weight), c.restWeight]);
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

          const refunds = allocate(minorUnits(charge.capturedAmount), [...steps.map((s) => s.weight), restWeight]).slice(0, steps.length);
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

/** A fee of at least one minor unit needs a share of at least this much at the lowest default rate (2.99 %). */
const SMALLEST_FEE_SHARE = Math.ceil(10_000 / 299);

describe('money properties: fees per installment band, refunds by their own split', () => {
  it('gives every installment count 1..24 of a credit charge a positive fee under the default plan', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_INSTALLMENTS }),
        fc.oneof(fc.integer({ min: SMALLEST_FEE_SHARE, max: 10_000 }), fc.integer({ min: SMALLEST_FEE_SHARE, max: 1_000_000_000 })),
        fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 3 }),
        (installments, amount, weights) => {
          const parts = allocate(minorUnits(amount), [...weights, 1000]);
          const splitRules: SplitRuleInput[] = weights.map((_, i) => ({ sellerId: SELLERS[i]!, amount: parts[i]! }));
          const charge: CapturedCharge = { chargeId: 'ch', paymentType: 'credit', installments, amount, capturedAmount: amount, splitRules, capturedAt: new Date('2026-03-02T13:00:00Z') };
          const drafts = buildReceivables(charge, () => ({ fees: DEFAULT_FEES, settlementDays: DEFAULT_SETTLEMENT_DAYS }), calendar);
          const rule = feeRuleFor({ fees: DEFAULT_FEES }, 'credit', installments);
          expect(rule).toBeDefined();
          expect(rule!.percentage).toBeGreaterThan(0);
          for (const receiver of new Set(drafts.map((d) => d.receiver))) {
            const mine = drafts.filter((d) => d.receiver === receiver);
            const share = sum(mine.map((d) => d.gross));
            const fee = sum(mine.map((d) => d.fee));
            expect(fee).toBe(Math.floor((share * rule!.percentage) / 10_000));
            if (share >= SMALLEST_FEE_SHARE) expect(fee).toBeGreaterThan(0);
          }
          // The whole charge to one receiver: its fee is never 0, whatever the number of installments.
          const whole = buildReceivables({ ...charge, splitRules: [] }, () => ({ fees: DEFAULT_FEES, settlementDays: DEFAULT_SETTLEMENT_DAYS }), calendar);
          expect(sum(whole.map((d) => d.fee))).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300, seed: 20261126 },
    );
  });

  const refundArb = fc.record({
    weight: fc.integer({ min: 1, max: 1000 }),
    bySplit: fc.boolean(),
    splitWeights: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 6 }),
  });

  it("takes exactly each refund's stated amounts from each receiver, the rest pro rata, and the ledger still adds up", () => {
    fc.assert(
      fc.property(
        chargeArb,
        fc.array(refundArb, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: -5, max: 400 }),
        fc.boolean(),
        (charge, requests, restWeight, unexplainedWeight, settleUpTo, allSplit) => {
          const planOf = (): PlanPart => ({ fees: DEFAULT_FEES, settlementDays: DEFAULT_SETTLEMENT_DAYS });
          const drafts = buildReceivables(charge, planOf, calendar).map((d, i) => ({ ...d, id: `rcv${i}` }));
          const postings: Posting[] = [capturePosting(charge.chargeId, drafts)];
          let model: OpenReceivable[] = drafts.map((d) => ({
            id: d.id,
            receiver: d.receiver,
            gross: d.gross,
            fee: d.fee,
            net: d.net,
            settled: false,
            settlementDate: d.settlementDate,
            installment: d.installment,
          }));
          // Some receivables settled before the refunds: what they cannot give back becomes debits.
          const settleDate = addDays(brasiliaDate(charge.capturedAt), settleUpTo);
          for (const m of model) {
            if (m.settlementDate > settleDate) continue;
            postings.push(settlementPosting(m.id, m.receiver, m.net));
            m.settled = true;
          }
          const receivers = [...new Set(model.map((m) => m.receiver))];
          const amounts = allocate(minorUnits(charge.capturedAmount), [...requests.map((r) => r.weight), unexplainedWeight, restWeight]);
          const refunds: RefundRequest[] = requests.map((r, i) => {
            const amount = amounts[i]!;
            const split = allSplit || r.bySplit;
            const targets = receivers.filter((x): x is string => x !== null);
            if (!split || targets.length === 0) return { id: `r${i}`, amount, split: null, settledAt: `2026-03-0${i + 1}` };
            const shares = allocate(
              amount,
              targets.map((_, j) => r.splitWeights[j % r.splitWeights.length]!),
            );
            return { id: `r${i}`, amount, split: new Map(targets.map((t, j) => [t, shares[j]!])), settledAt: `2026-03-0${i + 1}` };
          });
          const unexplained = amounts[requests.length]!;
          const total = sum(refunds.map((r) => r.amount)) + unexplained;
          // The requests come in any order; the parts follow the order the refunds were done.
          const parts = refundParts(total, [...refunds].reverse());
          expect(sum(parts.map((p) => p.amount))).toBe(total);
          expect(parts.filter((p) => p.perReceiver).map((p) => p.perReceiver)).toEqual(refunds.filter((r) => r.split && r.amount > 0).map((r) => r.split));

          // Taken one by one, each part with its own split takes exactly its amounts from each receiver.
          let step = model;
          for (const part of parts) {
            const plan = planRefund(part.amount, step, part.perReceiver);
            if (part.perReceiver) {
              for (const [receiver, stated] of part.perReceiver) {
                const taken = sum(plan.offsets.filter((o) => o.receiver === receiver).map((o) => o.gross)) + sum(plan.debits.filter((d) => d.receiver === receiver).map((d) => d.amount));
                expect(taken).toBe(stated);
              }
            }
            step = applyOffsets(step, plan.offsets);
          }
          // All of them in one posting: the same offsets, the debits summed per receiver.
          const plan = planRefundParts(parts, model);
          expect(sum(plan.offsets.map((o) => o.gross)) + sum(plan.debits.map((d) => d.amount))).toBe(total);
          expect(new Set(plan.debits.map((d) => d.receiver)).size).toBe(plan.debits.length);
          if (allSplit && unexplained === 0 && receivers.some((r) => r !== null)) {
            for (const receiver of receivers) {
              const stated = sum(refunds.map((r) => r.split?.get(receiver as string) ?? 0));
              const taken = sum(plan.offsets.filter((o) => o.receiver === receiver).map((o) => o.gross)) + sum(plan.debits.filter((d) => d.receiver === receiver).map((d) => d.amount));
              if (receiver !== null) expect(taken).toBe(stated);
            }
          }
          const refund = refundPosting(`refund:${charge.chargeId}:${total}`, 'refund', plan.offsets, plan.debits);
          expect(isBalanced(refund)).toBe(true);
          postings.push(refund);
          model = applyOffsets(model, plan.offsets);
          expect(model).toEqual(step);

          const all = postings.flatMap((p) => p.lines);
          expect(sum(all.map((l) => l.amount))).toBe(0);
          expect(balanceOf(all, ACCOUNTS.clearing)).toBe(total - charge.capturedAmount);
          expect(balanceOf(all, ACCOUNTS.fees)).toBe(sum(model.map((m) => m.fee)));
          for (const m of model) {
            expect(m.net).toBe(m.gross - m.fee);
            expect(m.net).toBeGreaterThanOrEqual(0);
            expect(receivableRemaining(all, m.id)).toBe(m.settled ? 0 : m.net);
          }
          for (const r of receivers) {
            expect(balanceOf(all, receivableAccount(r))).toBe(sum(model.filter((m) => m.receiver === r && !m.settled).map((m) => m.net)));
            const settledNet = sum(drafts.filter((d) => d.receiver === r && model.find((m) => m.id === d.id)!.settled).map((d) => d.net));
            expect(balanceOf(all, availableAccount(r))).toBe(settledNet - sum(plan.debits.filter((d) => d.receiver === r).map((d) => d.amount)));
          }
        },
      ),
      { numRuns: 300, seed: 20261127 },
    );
  });
});
