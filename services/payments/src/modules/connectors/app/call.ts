import { performance } from 'node:perf_hooks';
import { ProviderUnavailableError } from '../domain/types';

/**
 * `unavailable`: known to have done nothing (refused before anything was sent, no adapter, a ProviderUnavailableError).
 * `unknown`: anything else (the deadline passed, a ProviderOutcomeUnknownError, any other exception): the provider may
 * have carried the request out, so it is never taken for a failure of the attempt.
 */
export type CallFailure = 'unavailable' | 'unknown';

export type CallOutcome<T> =
  | { ok: true; value: T; ms: number }
  | { ok: false; failure: CallFailure; message: string; ms: number; error?: unknown; timedOut?: boolean };

/**
 * Runs one provider request under a deadline. The adapter gets a signal that aborts when the time is up;
 * whether or not it listens, the caller stops waiting then and the outcome is unknown. Only a
 * ProviderUnavailableError says the provider did nothing; any other exception is an unknown outcome too.
 * Neither is ever a business decline.
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
  const timedOut = (): CallOutcome<T> => ({ ok: false, failure: 'unknown', message: `no answer within ${timeoutMs} ms`, ms: elapsed(), timedOut: true });
  try {
    const first = await Promise.race([attempt, deadline]);
    if (first === 'timeout') return timedOut();
    if (first.done) return { ok: true, value: first.value, ms: elapsed() };
    if (controller.signal.aborted) return timedOut();
    const message = first.error instanceof Error ? first.error.message : String(first.error);
    if (first.error instanceof ProviderUnavailableError) {
      return { ok: false, failure: 'unavailable', message: `provider unavailable: ${message}`, ms: elapsed(), error: first.error };
    }
    return { ok: false, failure: 'unknown', message: `outcome unknown: ${message}`, ms: elapsed(), error: first.error };
  } finally {
    clearTimeout(timer);
  }
}
