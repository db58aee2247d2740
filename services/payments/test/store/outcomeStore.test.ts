import { randomUUID } from 'node:crypto';
import type { Pool } from '@platform/kit';
import { appendOutcomes, DEFAULT_SUCCESS_RATE_SETTINGS, EMPTY_OUTCOMES, type ProviderOutcomes, type SuccessRateSettings } from '../../src/modules/charges/domain/successRate';
import { loadOutcomes, recordOutcomes, type OutcomeScope } from '../../src/modules/charges/store/outcomeStore';
import { startStoreDatabase } from '../support/fixtures';

let pool: Pool;

beforeAll(async () => {
  pool = await startStoreDatabase('payments_outcome_store');
});

afterAll(async () => {
  await pool.end();
});

const settings: SuccessRateSettings = { ...DEFAULT_SUCCESS_RATE_SETTINGS, window: 12, eliminationWindow: 6, eliminationPercent: 50, cooldownMs: 1000 };
const scope = (): OutcomeScope => ({ clientId: randomUUID(), merchantId: randomUUID(), paymentType: 'credit', cardBrand: 'visa' });

describe('outcome store', () => {
  it('keeps the window and the elimination as the domain rule does, charge after charge', async () => {
    const where = scope();
    const [a, b] = [randomUUID(), randomUUID()];
    // A seeded walk of charges: each tries one or both providers, on a clock that moves by 0 to 700 ms.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const expected = new Map<string, ProviderOutcomes>([
      [a, EMPTY_OUTCOMES],
      [b, EMPTY_OUTCOMES],
    ]);
    let now = Date.UTC(2026, 0, 1);
    for (let charge = 0; charge < 120; charge += 1) {
      now += Math.floor(next() * 700);
      const marks = new Map<string, string>();
      const letter = () => (next() < 0.45 ? 't' : next() < 0.8 ? 'a' : 'd');
      marks.set(a, letter());
      if (next() < 0.5) marks.set(b, letter());
      await recordOutcomes(pool, where, marks, new Date(now), settings);
      for (const [id, mark] of marks) expected.set(id, appendOutcomes(expected.get(id)!, mark, new Date(now), settings));
      expect(await loadOutcomes(pool, where, [a, b])).toEqual(expected);
    }
    const kept = (await loadOutcomes(pool, where, [a]))!.get(a)!;
    expect(kept.recent).toHaveLength(12);
  });

  it('keeps each scope and provider apart, and answers no outcomes for a provider never tried', async () => {
    const first = scope();
    const other = { ...first, cardBrand: 'mastercard' };
    const id = randomUUID();
    const never = randomUUID();
    await recordOutcomes(pool, first, new Map([[id, 'ad']]), new Date(), settings);
    await recordOutcomes(pool, other, new Map([[id, 't']]), new Date(), settings);
    const loaded = await loadOutcomes(pool, first, [id, never]);
    expect(loaded.get(id)).toEqual({ recent: 'ad', trippedAt: null });
    expect(loaded.get(never)).toEqual(EMPTY_OUTCOMES);
    expect((await loadOutcomes(pool, other, [id])).get(id)).toEqual({ recent: 't', trippedAt: null });
  });
});
