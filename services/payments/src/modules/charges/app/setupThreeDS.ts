import { randomUUID } from 'node:crypto';
import { errors, isUuid, jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import { callWithTimeout } from '../../connectors/app/call';
import { SANDBOX_TYPE } from '../../connectors/sandbox/sandbox';
import type { ThreeDSSetupRow } from '../store/chargeStore';
import type { ChargeDeps, ThreeDSSetup } from './deps';

export const SETUP_THREE_DS_OPERATION = 'payments.three_ds.setup';

/** The idempotency record keeps the answer as the kit's JSON of the domain result, as every payments operation does. */
const setupCodec = jsonCodec<ThreeDSSetup>();

/**
 * Opens a 3DS2 device data collection for a saved card or a card token. No merchant is named, so the setup is
 * made with the SANDBOX provider, which simulates 3DS2; the token is not consumed (the charge will use it).
 */
export async function setupThreeDS(deps: ChargeDeps, request: { clientId: string; sourceType: string; cardId: string; tokenId: string }, idempotencyKey?: string): Promise<ThreeDSSetup> {
  const clientId = requireClientId(request.clientId);
  const rawType = (request.sourceType || 'card').trim().toLowerCase();
  const cardId = request.cardId.trim().toLowerCase();
  const tokenId = request.tokenId.trim().toLowerCase();
  if (rawType !== 'card' && rawType !== 'token') {
    throw errors.validation('Invalid 3DS setup', [{ field: 'sourceType', message: 'must be card or token' }]);
  }
  const sourceType: 'card' | 'token' = rawType;
  if (sourceType === 'card' && !isUuid(cardId)) throw errors.validation('Invalid 3DS setup', [{ field: 'cardId', message: 'must be a UUID' }]);
  if (sourceType === 'token' && !isUuid(tokenId)) throw errors.validation('Invalid 3DS setup', [{ field: 'tokenId', message: 'must be a UUID' }]);
  const options = { clientId, key: idempotencyKey, operation: SETUP_THREE_DS_OPERATION, request, codec: setupCodec };
  return withIdempotency(deps.pool, options, {
    prepare: async () => {
      const now = deps.clock.now();
      if (sourceType === 'card' && !(await deps.vault.cardExists(deps.pool, clientId, cardId))) throw errors.notFound('Card', cardId);
      if (sourceType === 'token' && !(await deps.vault.tokenUsable(deps.pool, clientId, tokenId, now))) throw errors.notFound('Token', tokenId);
      return open(deps, { clientId, sourceType, cardId, tokenId, now });
    },
    commit: async (tx, setup) => {
      await deps.store.insertThreeDSSetup(tx, setup);
      return { id: setup.id, token: setup.token, collectUrl: setup.collectUrl, providerType: setup.providerType };
    },
  });
}

/** Asks the provider for the setup, with no transaction open; the caller stores it. */
async function open(
  deps: ChargeDeps,
  input: { clientId: string; sourceType: 'card' | 'token'; cardId: string; tokenId: string; now: Date },
): Promise<ThreeDSSetupRow> {
  const { clientId, sourceType, cardId, tokenId, now } = input;
  const adapter = deps.providers.payment(SANDBOX_TYPE);
  const setup = adapter?.setupThreeDS?.bind(adapter);
  if (!setup) throw errors.unavailable('No provider offers 3DS2 setup');
  const id = randomUUID();
  const answer = await callWithTimeout(deps.config.PROVIDER_TIMEOUT_MS, (signal) =>
    setup(
      { setupId: id, ...(sourceType === 'card' ? { cardId } : { tokenId }) },
      { idempotencyKey: `${id}:three_ds:1`, signal, credentials: { type: SANDBOX_TYPE }, options: {} },
    ),
  );
  if (!answer.ok) throw errors.unavailable(`The 3DS2 provider did not answer: ${answer.message}`);
  const result = answer.value;
  return {
    id,
    clientId,
    cardId: sourceType === 'card' ? cardId : null,
    tokenId: sourceType === 'token' ? tokenId : null,
    providerType: SANDBOX_TYPE,
    token: result.token,
    collectUrl: result.collectUrl,
    createdAt: now,
  };
}
