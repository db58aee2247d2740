import { AppError } from '@platform/kit';

export const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
]);
export const JPEG_BYTES = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-rest-of-image')]);
export const SVG_TEXT = '<?xml version="1.0"?>\n<!-- brand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

/** Runs a call expected to fail and returns the AppError it raised. */
export async function failure(call: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

export function fieldsOf(error: AppError): string[] {
  return (error.details ?? []).map((d) => d.field);
}
