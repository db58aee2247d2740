import { randomUUID } from 'node:crypto';
import type { AntifraudStatus } from '../../charges/domain/charge';
import type { AntifraudProvider, AntifraudRequest, AntifraudResult, ProviderCall } from '../domain/types';

export const SANDBOX_ANTIFRAUD_TYPE = 'SANDBOX_ANTIFRAUD';

/** Last digit of `fraudAnalysis.customer.identity`: 0 pending, 1 approved, 2 failed, anything else reproved. */
const OUTCOMES: Record<string, AntifraudStatus> = { '0': 'pending', '1': 'approved', '2': 'failed' };

export function identityOf(fraudAnalysis: Record<string, unknown>): string {
  const customer = fraudAnalysis.customer;
  if (!customer || typeof customer !== 'object') return '';
  const identity = (customer as Record<string, unknown>).identity;
  return typeof identity === 'string' || typeof identity === 'number' ? String(identity) : '';
}

export function sandboxAntifraudOutcome(fraudAnalysis: Record<string, unknown>): AntifraudStatus {
  return OUTCOMES[identityOf(fraudAnalysis).trim().at(-1) ?? ''] ?? 'reproved';
}

/** The test antifraud provider: decides by the buyer's identity document, and a pending analysis waits for the sandbox route. */
export class SandboxAntifraudProvider implements AntifraudProvider {
  readonly type = SANDBOX_ANTIFRAUD_TYPE;

  async analyze(request: AntifraudRequest, _call: ProviderCall): Promise<AntifraudResult> {
    const status = sandboxAntifraudOutcome(request.fraudAnalysis);
    return { status, transactionId: `sbxaf_${randomUUID().replace(/-/g, '')}`, message: `SANDBOX_ANTIFRAUD analysis ${status}` };
  }
}
