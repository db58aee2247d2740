import { errors, withIdempotency, type PoolClient } from '@platform/kit';
import type { Charge, TransactionRequestRecord } from '../../domain/charge';
import { requireClientId } from '../../domain/merchant';
import { chargeCodec } from '../../grpc/chargeMessages';
import { recordChargeEvent } from './chargeEvents';
import type { ChargeDeps } from './deps';
import { ProviderRequestFailedError } from './providerRequests';

export interface ChargeChange {
  charge: Charge;
  /** The provider requests the change made, to be stored with it. */
  requests: TransactionRequestRecord[];
}

/**
 * The frame of every change to an existing charge: the idempotency record, the charge row locked until the
 * transaction ends (so two refunds never both see the same remainder), the change, its transaction requests and
 * its event, committed together. A provider request that failed changes nothing, but is still kept on record.
 */
export async function changeCharge(
  deps: ChargeDeps,
  options: { clientId: string; id: string; idempotencyKey?: string; operation: string; request: unknown },
  change: (tx: PoolClient, charge: Charge) => Promise<ChargeChange>,
): Promise<Charge> {
  const clientId = requireClientId(options.clientId);
  try {
    const changed = await withIdempotency(
      deps.pool,
      { clientId, key: options.idempotencyKey, operation: options.operation, request: options.request, codec: chargeCodec },
      async (tx) => {
        const current = await deps.store.findById(tx, clientId, options.id, { forUpdate: true });
        if (!current) throw errors.notFound('Charge', options.id);
        const { charge, requests } = await change(tx, current);
        for (const request of requests) await deps.store.insertRequest(tx, request);
        await deps.store.update(tx, charge);
        const next = { ...charge, transactionRequests: [...current.transactionRequests, ...requests] };
        await recordChargeEvent(tx, next, next.updatedAt);
        return next;
      },
    );
    deps.outbox?.kick();
    return changed;
  } catch (error) {
    // Written after the rollback, on a connection of its own: the failed request is history even though nothing changed.
    if (error instanceof ProviderRequestFailedError) await deps.store.insertRequest(deps.pool, error.request);
    throw error;
  }
}
