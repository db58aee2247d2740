/**
 * Polls `check` until it returns a value other than undefined, for effects that happen asynchronously (an event
 * relayed, a job run, a cache expiring). Fails naming `what` after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const intervalMs = options.intervalMs ?? 50;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
