/**
 * The verification a saved card gets from the SANDBOX provider (which also stands in for the platform's own
 * acquirer in sandbox accounts): a CVV ending in 0 is validated; any other is accepted without being checked.
 */
export function sandboxCvvVerified(cvv: string): boolean {
  return cvv.endsWith('0');
}
