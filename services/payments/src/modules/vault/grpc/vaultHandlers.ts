import type { payments } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { assignCardToCustomer } from '../app/assignCardToCustomer';
import type { VaultContext } from '../app/context';
import { createCard } from '../app/createCard';
import { createToken } from '../app/createToken';
import { getCard } from '../app/getCard';
import { listCards } from '../app/listCards';
import { getTokenSession } from '../app/tokenSession';
import { toCardMessage, toCardTokenMessage } from '../wire/vaultMessages';

type VaultRpc = 'createToken' | 'getTokenSession' | 'createCard' | 'listCards' | 'getCard' | 'assignCardToCustomer';

export function createVaultHandlers(ctx: VaultContext): Pick<Handlers<typeof payments.PaymentsServiceService>, VaultRpc> {
  return {
    createToken: async (request, call) => toCardTokenMessage(await createToken(ctx, request, call.idempotencyKey)),
    getTokenSession: async (request) => getTokenSession(ctx, request),
    createCard: async (request, call) => toCardMessage(await createCard(ctx, request, call.idempotencyKey)),
    listCards: async (request) => {
      const { items, meta } = await listCards(ctx, request);
      return { items: items.map(toCardMessage), meta };
    },
    getCard: async (request) => toCardMessage(await getCard(ctx, request)),
    assignCardToCustomer: async (request) => toCardMessage(await assignCardToCustomer(ctx, request)),
  };
}
