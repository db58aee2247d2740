import { randomUUID } from 'node:crypto';
import { errors, requireClientId, withIdempotency, type AppError } from '@platform/kit';
import { parseNewCustomer, type CreateCustomerInput, type Customer } from '../domain/customer';
import { CUSTOMER_EVENTS, recordCustomerEvent } from '../events/customerEvents';
import { customerCodec } from '../wire/customerMessages';
import type { CustomerDeps } from './deps';

export const CREATE_CUSTOMER_OPERATION = 'customers.create';

export interface CreateCustomerCommand extends CreateCustomerInput {
  clientId: string;
  /** Skips the per-client uniqueness of e-mail and document. */
  force: boolean;
}

function duplicate(field: 'email' | 'document'): AppError {
  return field === 'email'
    ? errors.conflict('A customer with this email already exists', 'customer_email_exists')
    : errors.conflict('A customer with this document already exists', 'customer_document_exists');
}

export async function createCustomer(deps: CustomerDeps, command: CreateCustomerCommand, idempotencyKey?: string): Promise<Customer> {
  const clientId = requireClientId(command.clientId);
  // Validated before the idempotency record is claimed: a malformed request changes nothing and claims no key.
  const input = parseNewCustomer(command);
  const created = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: CREATE_CUSTOMER_OPERATION, request: command, codec: customerCodec },
    async (tx) => {
      if (!command.force) {
        // Check-then-insert is only safe while no other create for the same e-mail or document can run between
        // the check and the commit; the lock lasts until this transaction ends.
        await deps.store.lockIdentity(tx, clientId, {
          email: input.email,
          documentType: input.document.type,
          documentNumber: input.document.number,
        });
        if (await deps.store.emailInUse(tx, clientId, input.email)) throw duplicate('email');
        if (await deps.store.documentInUse(tx, clientId, input.document.type, input.document.number)) throw duplicate('document');
      }
      const now = deps.clock.now();
      const customer = await deps.store.insert(tx, {
        id: randomUUID(),
        clientId,
        ...input,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await recordCustomerEvent(tx, CUSTOMER_EVENTS.created, customer, now);
      return customer;
    },
  );
  deps.outbox?.kick();
  return created;
}
