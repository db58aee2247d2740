import { z } from 'zod';
import { AppError, parseInput, requireClientId } from '../src';

/** Matches the validation AppError that names these fields, under this message. */
function validation(fields: string[], message?: string) {
  return expect.objectContaining({
    constructor: AppError,
    kind: 'validation',
    ...(message === undefined ? {} : { message }),
    details: fields.map((field) => expect.objectContaining({ field })),
  });
}

describe('requireClientId', () => {
  it('answers validation for a client id that is not a UUID', () => {
    for (const clientId of ['client-1', '', 'nope']) {
      expect(() => requireClientId(clientId)).toThrow(validation(['clientId'], 'Invalid clientId'));
    }
  });

  it('returns a UUID in lower case', () => {
    expect(requireClientId('6F9619FF-8B86-D011-B42D-00CF4FC964FF')).toBe('6f9619ff-8b86-d011-b42d-00cf4fc964ff');
  });
});

describe('parseInput', () => {
  const schema = z.object({ name: z.string().min(1), items: z.array(z.object({ amount: z.number().int() })) });

  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: 'a', items: [{ amount: 1 }], extra: true })).toEqual({ name: 'a', items: [{ amount: 1 }] });
  });

  it('names every bad field in one validation error, under the given message and prefix', () => {
    expect(() => parseInput(schema, { name: '', items: [{ amount: 1.5 }] })).toThrow(validation(['name', 'items.0.amount'], 'Invalid request'));
    expect(() => parseInput(schema, { name: 'a', items: [{ amount: 'x' }] }, 'Invalid provider', ['providers', 2])).toThrow(
      validation(['providers.2.items.0.amount'], 'Invalid provider'),
    );
  });
});
