import { randomUUID } from 'node:crypto';
import { createLogger, type Pool, type Queryable } from '@platform/kit';
import { outcomeMarksDropped } from '../../src/modules/charges/app/metrics';
import { manualTimer, OutcomeRecorder, type FlushTimer } from '../../src/modules/charges/app/outcomeRecorder';
import { DEFAULT_SUCCESS_RATE_SETTINGS, eliminationOf, type SuccessRateSettings } from '../../src/modules/charges/domain/successRate';
import { loadOutcomes, recordOutcomes, type OutcomeScope } from '../../src/modules/charges/store/outcomeStore';
import { startStoreDatabase } from '../support/fixtures';

let pool: Pool;

beforeAll(async () => {
  pool = await startStoreDatabase('payments_outcome_recorder');
});

afterAll(async () => {
  await pool.end();
});

const log = createLogger({ name: 'payments-test', level: 'silent' });
const settings: SuccessRateSettings = { ...DEFAULT_SUCCESS_RATE_SETTINGS, window: 12, eliminationWindow: 6, eliminationPercent: 50, cooldownMs: 1000 };
const scope = (clientId = randomUUID()): OutcomeScope => ({ clientId, merchantId: randomUUID(), paymentType: 'credit', cardBrand: 'visa' });

/** The database, its statements counted; `failing` of them fail (the next ones, before reaching it). */
function counted(failing = 0): { db: Queryable; statements: string[]; fail(n: number): void } {
  const statements: string[] = [];
  let toFail = failing;
  return {
    statements,
    fail: (n) => {
      toFail = n;
    },
    db: {
      query: async (text, values) => {
        statements.push(text);
        if (toFail > 0) {
          toFail -= 1;
          throw new Error('connection terminated');
        }
        return pool.query(text, values);
      },
    },
  };
}

function recorderOn(db: Queryable, options: { timer?: FlushTimer; flushAtMarks?: number; maxEntries?: number } = {}): OutcomeRecorder {
  return new OutcomeRecorder({ db, log, settings, flushMs: 200, timer: manualTimer, ...options });
}

/** A seeded walk: the same letters on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('outcome recorder', () => {
  it('flushes the marks of many charges across two scopes in one statement, with the windows appending them one by one in order gives', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const batched = [scope(), scope()];
    // The same merchants' charges, recorded one by one under other clients.
    const oneByOne = batched.map((s) => ({ ...s, clientId: randomUUID() }));
    const next = seeded(11);
    const letter = () => (next() < 0.4 ? 't' : next() < 0.8 ? 'a' : 'd');
    // Windows already there: the flush appends to them.
    for (const s of [...batched, ...oneByOne]) await recordOutcomes(pool, s, new Map([[a, 'aat']]), new Date('2026-01-01T00:00:00Z'), settings);

    const database = counted();
    const recorder = recorderOn(database.db);
    let now = Date.UTC(2026, 0, 1, 0, 0, 1);
    for (let charge = 0; charge < 60; charge += 1) {
      now += Math.floor(next() * 20);
      const which = next() < 0.5 ? 0 : 1;
      const marks = new Map<string, string>([[a, letter()]]);
      // A charge that failed over: both entries, the first one's letter before.
      if (next() < 0.5) marks.set(b, letter());
      if (next() < 0.2) marks.set(a, marks.get(a)! + letter());
      recorder.add(batched[which]!, marks, new Date(now));
      await recordOutcomes(pool, oneByOne[which]!, marks, new Date(now), settings);
    }
    expect(database.statements).toHaveLength(0);

    await recorder.flush();

    expect(database.statements).toHaveLength(1);
    expect(recorder.pendingMarks()).toBe(0);
    for (const i of [0, 1]) {
      const got = await loadOutcomes(pool, batched[i]!, [a, b]);
      const want = await loadOutcomes(pool, oneByOne[i]!, [a, b]);
      for (const id of [a, b]) {
        expect(got.get(id)!.recent).toBe(want.get(id)!.recent);
        expect(got.get(id)!.recent.length).toBeGreaterThan(3);
        // Out or in alike; taken out, at the time of the latest mark of the flush.
        expect(got.get(id)!.trippedAt === null).toBe(want.get(id)!.trippedAt === null);
      }
    }
  });

  it('keeps the marks of a failed flush, before the ones added since, for the next flush', async () => {
    const where = scope();
    const id = randomUUID();
    const database = counted(1);
    const recorder = recorderOn(database.db);
    recorder.add(where, new Map([[id, 'ad']]), new Date('2026-01-01T00:00:00Z'));

    await recorder.flush();
    expect(database.statements).toHaveLength(1);
    expect(recorder.pendingMarks()).toBe(2);
    expect((await loadOutcomes(pool, where, [id])).get(id)!.recent).toBe('');

    recorder.add(where, new Map([[id, 'tt']]), new Date('2026-01-01T00:00:01Z'));
    await recorder.flush();
    expect(database.statements).toHaveLength(2);
    expect(recorder.pendingMarks()).toBe(0);
    expect((await loadOutcomes(pool, where, [id])).get(id)).toEqual({ recent: 'adtt', trippedAt: null });
  });

  it('drops the oldest entries beyond its bound while flushes fail, and counts their marks', async () => {
    const where = scope();
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    const database = counted(1);
    const recorder = recorderOn(database.db, { maxEntries: 2 });
    const droppedBefore = (await outcomeMarksDropped.get()).values[0]?.value ?? 0;
    recorder.add(where, new Map([[first, 'aa']]), new Date());
    recorder.add(where, new Map([[second, 'a']]), new Date());
    await recorder.flush();
    recorder.add(where, new Map([[third, 'd']]), new Date());

    await recorder.flush();

    expect((await outcomeMarksDropped.get()).values[0]?.value ?? 0).toBe(droppedBefore + 2);
    const loaded = await loadOutcomes(pool, where, [first, second, third]);
    expect([first, second, third].map((id) => loaded.get(id)!.recent)).toEqual(['', 'a', 'd']);
  });

  it('flushes what is left at stop, and its timer stops', async () => {
    const where = scope();
    const id = randomUUID();
    let ticks: (() => void) | undefined;
    let stopped = false;
    const timer: FlushTimer = {
      start: (everyMs, tick) => {
        expect(everyMs).toBe(200);
        ticks = tick;
        return () => {
          stopped = true;
        };
      },
    };
    const database = counted();
    const recorder = recorderOn(database.db, { timer });
    recorder.start();

    // A tick of the timer writes the buffer.
    recorder.add(where, new Map([[id, 'a']]), new Date());
    ticks!();
    await recorder.flush();
    expect((await loadOutcomes(pool, where, [id])).get(id)!.recent).toBe('a');

    recorder.add(where, new Map([[id, 'd']]), new Date());
    await recorder.stop();

    expect(stopped).toBe(true);
    expect((await loadOutcomes(pool, where, [id])).get(id)!.recent).toBe('ad');
    expect(database.statements).toHaveLength(2);
  });

  it('starts a flush once the buffer holds its number of marks', async () => {
    const where = scope();
    const id = randomUUID();
    const database = counted();
    const recorder = recorderOn(database.db, { flushAtMarks: 3 });
    recorder.add(where, new Map([[id, 'aa']]), new Date());
    expect(database.statements).toHaveLength(0);
    recorder.add(where, new Map([[id, 'd']]), new Date());
    // The flush the third mark started: the next one waits for it.
    await recorder.flush();
    expect(database.statements).toHaveLength(1);
    expect((await loadOutcomes(pool, where, [id])).get(id)!.recent).toBe('aad');
  });

  it('takes a provider out after the threshold of technical failures, and two replicas add to the same window', async () => {
    const where = scope();
    const id = randomUUID();
    const replicas = [recorderOn(counted().db), recorderOn(counted().db)];
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
    // Threshold: 3 technical failures of the last 6.
    replicas[0]!.add(where, new Map([[id, 'at']]), at(0));
    replicas[1]!.add(where, new Map([[id, 't']]), at(10));
    for (const replica of replicas) await replica.flush();
    const once = (await loadOutcomes(pool, where, [id])).get(id)!;
    expect(once.recent).toBe('att');
    expect(eliminationOf(once, at(20), settings)).toBe('in');

    replicas[1]!.add(where, new Map([[id, 't']]), at(30));
    await replicas[1]!.flush();
    const out = (await loadOutcomes(pool, where, [id])).get(id)!;
    expect(out.trippedAt).toEqual(at(30));
    expect(eliminationOf(out, at(30 + 999), settings)).toBe('cooling_down');
    expect(eliminationOf(out, at(30 + 1000), settings)).toBe('probing');

    // A probe that fails after the cool-down starts another; approvals bring it back in.
    replicas[0]!.add(where, new Map([[id, 't']]), at(2000));
    await replicas[0]!.flush();
    expect((await loadOutcomes(pool, where, [id])).get(id)!.trippedAt).toEqual(at(2000));
    replicas[1]!.add(where, new Map([[id, 'aaa']]), at(2100));
    await replicas[1]!.flush();
    expect((await loadOutcomes(pool, where, [id])).get(id)).toEqual({ recent: 'attttaaa', trippedAt: at(2000) });
    replicas[0]!.add(where, new Map([[id, 'a']]), at(2200));
    await replicas[0]!.flush();
    expect((await loadOutcomes(pool, where, [id])).get(id)).toEqual({ recent: 'attttaaaa', trippedAt: null });
  });
});
