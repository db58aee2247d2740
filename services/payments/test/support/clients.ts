import type { ClientsPort } from '../../src/modules/receipts/app/deps';

/** Client names as settings would answer them, in memory; every question is kept. */
export class FakeClientsPort implements ClientsPort {
  static readonly DEFAULT_NAME = 'Comércio Exemplo Ltda';
  readonly names = new Map<string, string>();
  readonly asked: string[] = [];

  async clientName(clientId: string): Promise<string> {
    this.asked.push(clientId);
    return this.names.get(clientId) ?? FakeClientsPort.DEFAULT_NAME;
  }
}
