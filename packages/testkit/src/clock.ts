import type { Clock } from '@platform/kit';

/**
 * A clock a test moves by hand: real time until it is stopped, then still until moved. Rules that read "now"
 * (due dates, deadlines, cutoffs, cycles) are tested by moving it, never by sleeping.
 */
export class ManualClock implements Clock {
  private fixedMs?: number;

  /** Starts stopped at `start` when given, else following real time. */
  constructor(start?: Date | number) {
    if (start !== undefined) this.fixedMs = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.fixedMs ?? Date.now());
  }

  /** Stops the clock at an instant. */
  set(at: Date | number): void {
    this.fixedMs = typeof at === 'number' ? at : at.getTime();
  }

  /** Moves the clock forward (it stops at the instant reached). */
  advance(ms: number): void {
    this.fixedMs = (this.fixedMs ?? Date.now()) + ms;
  }

  advanceSeconds(seconds: number): void {
    this.advance(seconds * 1000);
  }

  /** Back to real time. */
  resume(): void {
    this.fixedMs = undefined;
  }
}
