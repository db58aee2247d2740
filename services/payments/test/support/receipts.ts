import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { payments } from '@platform/contracts';
import { createPromiseClient, implement, startGrpcServer } from '@platform/kit';
import type { ReceiptDeps } from '../../src/modules/receipts/app/deps';
import { createReceiptStore } from '../../src/modules/receipts/store/receiptStore';
import { createReceiptHandlers } from '../../src/modules/receipts/grpc/receiptHandlers';
import { createChargeStore } from '../../src/modules/charges/store/chargeStore';
import { createMerchantStore } from '../../src/modules/merchants/store/merchantStore';
import type { PaymentsClient, RunningCharges } from './charges';
import { FakeClientsPort } from './clients';

export { FakeClientsPort };

export interface ReceiptsServer {
  client: PaymentsClient;
  clients: FakeClientsPort;
  stop(): Promise<void>;
}

const RECEIPT_RPCS = {
  createReceipt: payments.PaymentsServiceService.createReceipt,
  getReceipt: payments.PaymentsServiceService.getReceipt,
  readReceiptFile: payments.PaymentsServiceService.readReceiptFile,
};

/**
 * The receipt RPCs served over gRPC on the running payments service's own database, pool, clock and stores, with
 * client names from a fake directory: the charges are made and refunded through the real service.
 */
export async function startReceipts(running: RunningCharges): Promise<ReceiptsServer> {
  const log = running.service.runtime.log;
  const clients = new FakeClientsPort();
  const deps: ReceiptDeps = { pool: running.pool, log, clock: running.clock, charges: createChargeStore(), merchants: createMerchantStore(), receipts: createReceiptStore(), clients };
  const implementation = implement(RECEIPT_RPCS, createReceiptHandlers(deps), log);
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [{ name: 'payments.v1.PaymentsService', definition: payments.PaymentsServiceService, implementation }],
    log,
  });
  const client = createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, `127.0.0.1:${server.port}`);
  return {
    client,
    clients,
    stop: async () => {
      client.close();
      await server.shutdown(1000);
    },
  };
}

/** Runs a poppler tool (Debian poppler-utils) on PDF bytes and answers what it printed. */
function poppler(tool: 'pdftotext' | 'pdfinfo', pdf: Buffer, args: string[] = []): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'receipt-'));
  try {
    const file = path.join(dir, 'receipt.pdf');
    writeFileSync(file, pdf);
    return execFileSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of the PDF, in reading order, with runs of white space (line breaks included) made one space. */
export function pdfText(pdf: Buffer): string {
  return poppler('pdftotext', pdf).replace(/\s+/g, ' ');
}

/** The PDF's document information as pdfinfo prints it (`Pages`, `CreationDate`...). */
export function pdfInfo(pdf: Buffer): Record<string, string> {
  const lines = poppler('pdfinfo', pdf, ['-isodates']).split('\n');
  return Object.fromEntries(lines.filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
}
