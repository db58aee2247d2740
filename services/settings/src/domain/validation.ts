import { errors, type FieldViolation } from '@platform/kit';

export { isUuid } from '@platform/kit';

export function invalid(details: FieldViolation[], message = 'Invalid request'): never {
  throw errors.validation(message, details);
}
