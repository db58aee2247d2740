import { CardSchema } from '@platform/api-model';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

const id = z.string({ error: requiredOr('must be a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const flag = z.boolean({ error: requiredOr('must be true or false') });

export const CreateCardBody = z
  .object({
    tokenId: id.openapi({ description: 'From POST /v1/tokens; used up here' }),
    merchantId: id.optional().openapi({ description: 'The merchant whose provider verifies the card' }),
    cvvCheck: flag.optional().openapi({ description: 'Verify the CVV with the provider (zero-dollar authorization)' }),
    zeroDollar: z
      .object({ merchantId: id, cvvCheck: flag.optional() })
      .optional()
      .openapi({ description: 'The same as merchantId and cvvCheck, in the shape some integrations send' }),
  })
  .superRefine((body, ctx) => {
    if (body.merchantId !== undefined && body.zeroDollar !== undefined && body.merchantId !== body.zeroDollar.merchantId) {
      ctx.addIssue({ code: 'custom', path: ['zeroDollar', 'merchantId'], message: 'differs from merchantId' });
    }
    if (body.cvvCheck !== undefined && body.zeroDollar?.cvvCheck !== undefined && body.cvvCheck !== body.zeroDollar.cvvCheck) {
      ctx.addIssue({ code: 'custom', path: ['zeroDollar', 'cvvCheck'], message: 'differs from cvvCheck' });
    }
  })
  .openapi('CreateCardRequest');

export const ListCardsQuery = paginationQuery.extend({
  customerId: z.string().min(1, 'must not be empty').max(200).optional(),
});

export const CardParams = z.object({ id: z.string().min(1).max(200) });

/** The card answer is the API model's schema. */
export { CardSchema };
export type { CardJson } from '@platform/api-model';

export const CardListSchema = listSchema(CardSchema, 'CardList');

export type CreateCardInput = z.infer<typeof CreateCardBody>;
export type ListCardsInput = z.infer<typeof ListCardsQuery>;
