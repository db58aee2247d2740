import { CLIENT_ENVIRONMENTS, CLIENT_LIMITS } from '@platform/api-model';
import { parseInput } from '@platform/kit';
import { z } from 'zod';
import { invalid } from './validation';

export const ENVIRONMENTS = CLIENT_ENVIRONMENTS;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface ClientAccount {
  id: string;
  name: string;
  environment: Environment;
  prepaymentEnabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const name = z.string().trim().min(1, 'must not be empty').max(CLIENT_LIMITS.nameMaxLength, `must be at most ${CLIENT_LIMITS.nameMaxLength} characters`);

const newClientSchema = z.object({
  name,
  environment: z.enum(ENVIRONMENTS, { error: 'must be "sandbox" or "live"' }),
  prepaymentEnabled: z.boolean(),
});

export type NewClient = z.output<typeof newClientSchema>;

export function parseNewClient(input: { name: string; environment: string; prepaymentEnabled: boolean }): NewClient {
  return parseInput(newClientSchema, input);
}

export interface ClientChanges {
  name?: string;
  prepaymentEnabled?: boolean;
}

const clientChangesSchema = z.object({ name: name.optional(), prepaymentEnabled: z.boolean().optional() });

export function parseClientChanges(input: { name?: string; prepaymentEnabled?: boolean }): ClientChanges {
  const changes = parseInput(clientChangesSchema, { name: input.name, prepaymentEnabled: input.prepaymentEnabled });
  if (changes.name === undefined && changes.prepaymentEnabled === undefined) {
    const message = 'at least one of name, prepaymentEnabled is required';
    invalid(
      [
        { field: 'name', message },
        { field: 'prepaymentEnabled', message },
      ],
      'Nothing to update',
    );
  }
  return changes;
}
