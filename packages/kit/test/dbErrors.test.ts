import { AppError, errors, isForeignKeyViolation, isUniqueViolation, PG_ERROR, translateDbError, withConstraintErrors } from '../src';

/** What node-postgres raises for a broken constraint, reduced to the fields the kit reads. */
function pgError(code: string, constraint?: string): Error & { code: string; constraint?: string } {
  return Object.assign(new Error(`violation of ${constraint ?? 'something'}`), { code, constraint });
}

const constraints = {
  webhooks_endpoint: () => errors.conflict('A webhook with this endpoint already exists', 'webhook_endpoint_exists'),
  logos_client_id_fkey: () => errors.notFound('Client', 'c-1'),
};

describe('PostgreSQL error translation', () => {
  it('recognises unique and foreign key violations, optionally of one constraint', () => {
    expect(isUniqueViolation(pgError(PG_ERROR.uniqueViolation, 'a'))).toBe(true);
    expect(isUniqueViolation(pgError(PG_ERROR.uniqueViolation, 'a'), 'a')).toBe(true);
    expect(isUniqueViolation(pgError(PG_ERROR.uniqueViolation, 'a'), 'b')).toBe(false);
    expect(isUniqueViolation(pgError(PG_ERROR.foreignKeyViolation, 'a'))).toBe(false);
    expect(isForeignKeyViolation(pgError(PG_ERROR.foreignKeyViolation, 'a'), 'a')).toBe(true);
    expect(isForeignKeyViolation(new Error('plain'))).toBe(false);
    expect(isForeignKeyViolation(undefined)).toBe(false);
  });

  it('turns a listed constraint into the error declared for it', () => {
    const conflict = (() => {
      try {
        translateDbError(pgError(PG_ERROR.uniqueViolation, 'webhooks_endpoint'), constraints);
      } catch (error) {
        return error;
      }
    })();
    expect(conflict).toBeInstanceOf(AppError);
    expect(conflict).toMatchObject({ kind: 'conflict', key: 'webhook_endpoint_exists' });
  });

  it('rethrows anything else unchanged', () => {
    const unlisted = pgError(PG_ERROR.uniqueViolation, 'other');
    expect(() => translateDbError(unlisted, constraints)).toThrow(unlisted);
    const plain = new Error('connection lost');
    expect(() => translateDbError(plain, constraints)).toThrow(plain);
    expect(() => translateDbError(pgError(PG_ERROR.uniqueViolation, 'toString'), constraints)).toThrow('violation of toString');
  });

  it('translates the violations of a write and passes its result through', async () => {
    await expect(withConstraintErrors(async () => 42, constraints)).resolves.toBe(42);
    await expect(
      withConstraintErrors(async () => {
        throw pgError(PG_ERROR.foreignKeyViolation, 'logos_client_id_fkey');
      }, constraints),
    ).rejects.toMatchObject({ kind: 'not_found' });
    const unlisted = pgError(PG_ERROR.checkViolation, 'amount_positive');
    await expect(
      withConstraintErrors(async () => {
        throw unlisted;
      }, constraints),
    ).rejects.toBe(unlisted);
  });
});
