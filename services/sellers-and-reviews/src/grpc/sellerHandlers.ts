import type { sellers } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import type { SellerDeps } from '../app/deps';
import { cancelReview } from '../app/cancelReview';
import { createSeller } from '../app/createSeller';
import { deleteSeller } from '../app/deleteSeller';
import { getReview } from '../app/getReview';
import { getSeller } from '../app/getSeller';
import { listReviews } from '../app/listReviews';
import { listSellers } from '../app/listSellers';
import { openReview } from '../app/openReview';
import type { SellerCreatedHook } from '../app/sellerChanges';
import { sendRequestedFields } from '../app/sendRequestedFields';
import { submitReview } from '../app/submitReview';
import { updateSeller } from '../app/updateSeller';
import { checkSplitReceivers } from '../app/checkSplitReceivers';
import { toReviewMessage } from '../wire/reviewMessages';
import { toSellerMessage } from '../wire/sellerMessages';

export function createSellerHandlers(deps: SellerDeps, onCreated: SellerCreatedHook[] = []): Handlers<typeof sellers.SellersServiceService> {
  const review = (r: Parameters<typeof toReviewMessage>[0]) => toReviewMessage(r, deps.clock.now());
  return {
    createSeller: async (request, ctx) => toSellerMessage(await createSeller(deps, { clientId: request.clientId, seller: request.seller }, onCreated, ctx.idempotencyKey)),
    listSellers: async (request) => {
      const page = await listSellers(deps, request);
      return { items: page.items.map(toSellerMessage), meta: page.meta };
    },
    getSeller: async (request) => toSellerMessage(await getSeller(deps, request)),
    updateSeller: async (request) => toSellerMessage(await updateSeller(deps, { clientId: request.clientId, id: request.id, changes: request.changes })),
    deleteSeller: async (request) => toSellerMessage(await deleteSeller(deps, request)),
    openRegistrationReview: async (request, ctx) => review(await openReview(deps, request, ctx.idempotencyKey)),
    sendRequestedFields: async (request, ctx) => review(await sendRequestedFields(deps, request, ctx.idempotencyKey)),
    cancelRegistrationReview: async (request) => review(await cancelReview(deps, request)),
    getRegistrationReview: async (request) => review(await getReview(deps, request)),
    listRegistrationReviews: async (request) => {
      const page = await listReviews(deps, request);
      return { items: page.items.map(review), meta: page.meta };
    },
    submitRegistrationReview: async (request, ctx) => review(await submitReview(deps, request, ctx.idempotencyKey)),
    checkSplitReceivers: async (request) => ({ sellerIds: await checkSplitReceivers(deps, request) }),
  };
}
