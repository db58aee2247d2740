import type { Logger, Queryable } from '@platform/kit';
import type { SuccessRateSettings } from '../domain/successRate';
import { keptAttempts } from '../domain/successRate';
import { recordMany, type OutcomeAppend, type OutcomeScope } from '../store/outcomeStore';
import { outcomeMarksDropped, outcomeFlushes } from './metrics';

/** What starts the recorder's periodic flush: the interval timer in the service, one a test drives (or never fires) in tests. */
export interface FlushTimer {
  /** Calls `tick` every `everyMs` until the returned function is called. */
  start(everyMs: number, tick: () => void): () => void;
}

/** setInterval, not keeping the process alive by itself. */
export const intervalTimer: FlushTimer = {
  start(everyMs, tick) {
    const handle = setInterval(tick, everyMs);
    handle.unref();
    return () => clearInterval(handle);
  },
};

/** A timer that never fires: the flushes are the ones called (flush(), stop(), a full buffer). */
export const manualTimer: FlushTimer = { start: () => () => undefined };

export interface OutcomeRecorderOptions {
  db: Queryable;
  log: Logger;
  settings: SuccessRateSettings;
  /** How often the buffer is written (OUTCOMES_FLUSH_MS). */
  flushMs: number;
  timer?: FlushTimer;
  /** Letters buffered since the last flush that start one at once. */
  flushAtMarks?: number;
  /**
   * Provider entries (scope and provider) the buffer holds at most, across failed flushes; beyond it the oldest
   * entry's letters are dropped (and counted). An entry holds at most the letters its window keeps.
   */
  maxEntries?: number;
}

interface Pending extends OutcomeAppend {
  key: string;
}

const keyOf = (scope: OutcomeScope, providerId: string) => [scope.clientId, scope.merchantId, scope.paymentType, scope.cardBrand, providerId].join('\u0000');

/**
 * The outcomes of charges (success-rate routing) written off the charges' path, one per payments process: a charge
 * adds its letters once it is stored (add), and they are appended to their windows in one statement for every
 * scope and provider buffered, every `flushMs`, when `flushAtMarks` letters wait, and at stop. The database still
 * does the append (recordMany), so that replicas add to the same windows; a provider entry's letters of one flush are
 * appended in their order, as one step at the time of the latest (see recordMany), so its window is the one the
 * charges would have made one by one and an elimination starts at most one flush later.
 *
 * Reads (loadOutcomes) see only what was flushed: a charge is routed on the outcomes of charges up to one flush
 * interval older than itself, on every replica alike.
 *
 * A failed flush is logged and its letters kept, before those added since, for the next one.
 */
export class OutcomeRecorder {
  private buffer = new Map<string, Pending>();
  private sinceFlush = 0;
  private running: Promise<void> = Promise.resolve();
  private stopTimer: (() => void) | undefined;
  private stopped = false;
  private readonly flushAtMarks: number;
  private readonly maxEntries: number;
  private readonly kept: number;

  constructor(private readonly options: OutcomeRecorderOptions) {
    this.flushAtMarks = options.flushAtMarks ?? 1000;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.kept = keptAttempts(options.settings);
  }

  /** Starts the periodic flush. */
  start(): void {
    if (this.stopTimer || this.stopped) return;
    this.stopTimer = (this.options.timer ?? intervalTimer).start(this.options.flushMs, () => void this.flush());
  }

  /** A charge's letters by provider entry, oldest first, at the charge's time. */
  add(scope: OutcomeScope, marks: ReadonlyMap<string, string>, at: Date): void {
    for (const [providerId, letters] of marks) {
      if (letters.length === 0) continue;
      this.put({ key: keyOf(scope, providerId), scope, providerId, letters, at });
      this.sinceFlush += letters.length;
    }
    if (this.sinceFlush >= this.flushAtMarks) void this.flush();
  }

  /** Letters waiting, by provider entry (tests, diagnostics). */
  pendingMarks(): number {
    let n = 0;
    for (const p of this.buffer.values()) n += p.letters.length;
    return n;
  }

  /** Writes what is buffered now, after any flush under way; resolves once it is written or given back to the buffer. */
  flush(): Promise<void> {
    this.running = this.running.then(() => this.flushOnce());
    return this.running;
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopTimer?.();
    this.stopTimer = undefined;
    await this.flush();
  }

  private put(entry: Pending): void {
    const known = this.buffer.get(entry.key);
    if (known) {
      // Only the latest `kept` letters can matter to the window.
      known.letters = (known.letters + entry.letters).slice(-this.kept);
      if (entry.at > known.at) known.at = entry.at;
      return;
    }
    this.buffer.set(entry.key, { ...entry, letters: entry.letters.slice(-this.kept) });
    while (this.buffer.size > this.maxEntries) {
      const [oldest, dropped] = this.buffer.entries().next().value as [string, Pending];
      this.buffer.delete(oldest);
      outcomeMarksDropped.inc(dropped.letters.length);
    }
  }

  private async flushOnce(): Promise<void> {
    if (this.buffer.size === 0) return;
    const taken = this.buffer;
    this.buffer = new Map();
    this.sinceFlush = 0;
    try {
      await recordMany(this.options.db, [...taken.values()], this.options.settings);
      outcomeFlushes.inc({ result: 'written' });
    } catch (error) {
      outcomeFlushes.inc({ result: 'failed' });
      this.options.log.warn({ err: error, entries: taken.size }, 'could not write the provider outcomes of charges for success-rate routing; kept for the next flush');
      // The letters taken come before those added since.
      const added = this.buffer;
      this.buffer = new Map();
      for (const entry of taken.values()) this.put(entry);
      for (const entry of added.values()) this.put(entry);
    }
  }
}
