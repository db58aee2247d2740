import { AppError } from '@platform/kit';

/** The AppError a rejected call carries (kind, key, businessCode, details); fails the test if the call resolved. */
export async function failureOf(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
