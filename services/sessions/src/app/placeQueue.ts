/**
 * The buyers of each session waiting in this process for a place held by attempts still waiting for their answer,
 * in the order they came. When an attempt of this process settles, the buyer waiting longest is woken at once to
 * try for the place (the others keep their turn); a place given back elsewhere (another replica, a charge's event,
 * the sweep) is seen by each waiter at its next look, every `pollMs`.
 */
export interface PlaceTicket {
  /**
   * Sleeps until this buyer's turn comes with a place given back, `ms` pass, or `signal` aborts (the caller is
   * gone). True when woken by a place given back.
   */
  wait(ms: number, signal?: AbortSignal): Promise<boolean>;
  /** Leaves the queue (placed, refused or gone); idempotent. */
  leave(): void;
}

interface Waiter {
  wake?: () => void;
}

export class PlaceQueue {
  private readonly bySession = new Map<string, Waiter[]>();

  join(sessionId: string): PlaceTicket {
    const waiter: Waiter = {};
    const queue = this.bySession.get(sessionId) ?? [];
    queue.push(waiter);
    this.bySession.set(sessionId, queue);
    return {
      wait: (ms, signal) =>
        new Promise<boolean>((resolve) => {
          if (signal?.aborted) {
            resolve(false);
            return;
          }
          const done = (woken: boolean) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', aborted);
            waiter.wake = undefined;
            resolve(woken);
          };
          const aborted = () => done(false);
          const timer = setTimeout(() => done(false), ms);
          signal?.addEventListener('abort', aborted, { once: true });
          waiter.wake = () => done(true);
        }),
      leave: () => {
        const current = this.bySession.get(sessionId);
        if (!current) return;
        const index = current.indexOf(waiter);
        if (index >= 0) current.splice(index, 1);
        if (current.length === 0) this.bySession.delete(sessionId);
      },
    };
  }

  /** A place of the session was given back (or its counters moved): wakes the `count` longest-waiting sleepers. */
  released(sessionId: string, count = 1): void {
    let left = count;
    for (const waiter of this.bySession.get(sessionId) ?? []) {
      if (left === 0) return;
      if (!waiter.wake) continue;
      waiter.wake();
      left -= 1;
    }
  }

  /** How many buyers of the session wait in this process (for tests and metrics). */
  waiting(sessionId: string): number {
    return this.bySession.get(sessionId)?.length ?? 0;
  }
}
