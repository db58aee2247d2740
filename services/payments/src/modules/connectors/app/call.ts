import { performance } from 'node:perf_hooks';

export type CallOutcome<T> =
  | { ok: true; value: T; ms: number }
  | { ok: false; failure: 'timeout' | 'unavailable'; message: string; ms: number; error?: unknown };

/**
 * Runs one provider request under a deadline. The adapter gets a signal that aborts when the time is up;
 * whether or not it listens, the caller stops waiting then and the request counts as a timeout. Anything the
 * adapter throws counts as the provider being unavailable. Neither is ever a business decline.
 */
export async function callWithTimeout<T>(timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<CallOutcome<T>> {
  const controller = new AbortController();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`provider did not answer within ${timeoutMs} ms`));
      resolve('timeout');
    }, timeoutMs);
  });
  const attempt = (async () => run(controller.signal))().then(
    (value) => ({ done: true as const, value }),
    (error: unknown) => ({ done: false as const, error }),
  );
  try {
    const first = await Promise.race([attempt, deadline]);
    if (first === 'timeout') {
      return { ok: false, failure: 'timeout', message: `no answer within ${timeoutMs} ms`, ms: elapsed() };
    }
    if (first.done) return { ok: true, value: first.value, ms: elapsed() };
    if (controller.signal.aborted) return { ok: false, failure: 'timeout', message: `no answer within ${timeoutMs} ms`, ms: elapsed() };
    const message = first.error instanceof Error ? first.error.message : String(first.error);
    return { ok: false, failure: 'unavailable', message: `provider unavailable: ${message}`, ms: elapsed(), error: first.error };
  } finally {
    clearTimeout(timer);
  }
}
