import { errors } from '@platform/kit';
import type { CustomersPort } from '../../src/shared/customersPort';

/**
 * The customers service as payments sees it, in memory. `strict`: only the customers added here exist, each for
 * its client. Otherwise (suites that are not about customers) every customer not added for another client exists.
 */
export class FakeCustomers implements CustomersPort {
  private readonly owners = new Map<string, string>();
  /** Every question asked, in order. */
  readonly asked: Array<{ clientId: string; customerId: string }> = [];

  /** How many of the next questions the service does not answer (503). */
  down = 0;

  constructor(private readonly options: { strict: boolean }) {}

  add(clientId: string, customerId: string): string {
    this.owners.set(customerId, clientId);
    return customerId;
  }

  async requireCustomer(clientId: string, customerId: string): Promise<undefined> {
    this.asked.push({ clientId, customerId });
    if (this.down > 0) {
      this.down--;
      throw errors.unavailable('A platform service is unavailable');
    }
    const owner = this.owners.get(customerId);
    if (owner === clientId) return undefined;
    if (owner === undefined && !this.options.strict) return;
    throw errors.notFound('Customer');
  }
}
