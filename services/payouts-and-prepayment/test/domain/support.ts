import { AppError } from '@platform/kit';

/** The AppError a call throws (fails the test when it throws something else or nothing). */
export function appErrorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

/** The fields named by a validation error. */
export function fieldsOf(fn: () => unknown): string[] {
  const error = appErrorOf(fn);
  expect(error.kind).toBe('validation');
  return (error.details ?? []).map((d) => d.field);
}
