import type { AppError } from './errors';

/** The PostgreSQL error codes a store turns into something a caller can act on. */
export const PG_ERROR = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  notNullViolation: '23502',
  invalidTextRepresentation: '22P02',
  numericOutOfRange: '22003',
  characterNotInRepertoire: '22021',
  untranslatableCharacter: '22P05',
  stringDataRightTruncation: '22001',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;

interface PgErrorLike {
  code?: string;
  constraint?: string;
}

function pgError(error: unknown): PgErrorLike | undefined {
  return typeof error === 'object' && error !== null && typeof (error as PgErrorLike).code === 'string' ? (error as PgErrorLike) : undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = pgError(error);
  return e?.code === PG_ERROR.uniqueViolation && (constraint === undefined || e.constraint === constraint);
}

export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const e = pgError(error);
  return e?.code === PG_ERROR.foreignKeyViolation && (constraint === undefined || e.constraint === constraint);
}

/**
 * What a store's constraints mean to a caller: constraint name → the error to raise instead. Anything listed is
 * translated; a constraint not listed (or another database error) is rethrown as it is, for the 500 path.
 */
export type ConstraintErrors = Record<string, () => AppError>;

/**
 * The one translation of PostgreSQL errors, used by every store: a named unique, foreign key or check constraint
 * becomes the error the store declared for it. Rethrows everything else unchanged.
 */
export function translateDbError(error: unknown, constraints: ConstraintErrors = {}): never {
  const e = pgError(error);
  if (e?.constraint && Object.hasOwn(constraints, e.constraint)) throw constraints[e.constraint]!();
  throw error;
}

/** Runs a write and translates its constraint violations (see translateDbError). */
export async function withConstraintErrors<T>(write: () => Promise<T>, constraints: ConstraintErrors): Promise<T> {
  try {
    return await write();
  } catch (error) {
    return translateDbError(error, constraints);
  }
}
