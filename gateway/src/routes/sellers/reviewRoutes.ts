import { toRegistrationReviewJson } from '@platform/api-model';
import type { GatewayClients } from '../../clients';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import {
  ListReviewsQuery,
  OpenDocumentReviewBody,
  OpenSellerReviewBody,
  RequestedFieldsBody,
  ReviewListSchema,
  ReviewParams,
  ReviewSchema,
  SellerReviewParams,
  SubmissionBody,
} from './reviewSchemas';

const tags = [TAGS.registrationReviews] as const;

/** Mounted before /v1/sellers/{id}, so `registration-reviews` is never read as a seller id. */
export function reviewRoutes({ sellersAndReviews: sellers }: Pick<GatewayClients, 'sellersAndReviews'>): RouteDefinition[] {
  const page = (query: { page: number; limit: number }) => ({ page: query.page, limit: query.limit, sort: 'DESC' });
  return [
    defineRoute({
      method: 'get',
      path: '/v1/sellers/registration-reviews',
      operationId: 'listRegistrationReviews',
      summary: 'List the registration review processes of every seller, newest first',
      tags,
      resource: 'sellers',
      query: ListReviewsQuery,
      response: { status: 200, description: 'A page of processes', schema: ReviewListSchema },
      handler: async ({ client, query, call }) => {
        const answer = await sellers.listRegistrationReviews({ clientId: client.clientId, statuses: query.status, reviewType: query.reviewType, page: page(query) }, call);
        return toList(answer.items.map(toRegistrationReviewJson), answer.meta);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sellers/registration-reviews',
      operationId: 'openSandboxRegistrationReviewByDocument',
      summary: 'Sandbox: the provider opens a process for a document (unmatched when no seller has it)',
      tags,
      resource: 'sellers',
      sandboxOnly: true,
      body: OpenDocumentReviewBody,
      response: { status: 201, description: 'The process', schema: ReviewSchema },
      errors: [409, 422],
      handler: async ({ client, body, call }) =>
        toRegistrationReviewJson(
          await sellers.openRegistrationReview(
            {
              clientId: client.clientId,
              documentType: body.document.type,
              documentNumber: body.document.number,
              reviewType: body.reviewType,
              deadlineAt: body.deadlineAt,
              expiresAt: body.expiresAt,
              rawGiven: body.raw !== undefined,
              raw: body.raw ?? [],
            },
            call,
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sellers/registration-reviews/{processId}',
      operationId: 'getRegistrationReview',
      summary: 'Get a registration review process',
      tags,
      resource: 'sellers',
      params: ReviewParams,
      response: { status: 200, description: 'The process', schema: ReviewSchema },
      handler: async ({ client, params, call }) =>
        toRegistrationReviewJson(await sellers.getRegistrationReview({ clientId: client.clientId, processId: params.processId }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sellers/registration-reviews/{processId}/submission',
      operationId: 'submitRegistrationReview',
      summary: 'Submit the requested fields (each checked against its pattern); the provider answers asynchronously',
      tags,
      resource: 'sellers',
      params: ReviewParams,
      body: SubmissionBody,
      errors: [409, 422],
      response: { status: 202, description: 'The process in submitting', schema: ReviewSchema },
      handler: async ({ client, params, body, call }) =>
        toRegistrationReviewJson(await sellers.submitRegistrationReview({ clientId: client.clientId, processId: params.processId, fields: body.fields }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sellers/registration-reviews/{processId}/requested-fields',
      operationId: 'sendSandboxRequestedFields',
      summary: 'Sandbox: the provider sends the field list',
      tags,
      resource: 'sellers',
      sandboxOnly: true,
      params: ReviewParams,
      body: RequestedFieldsBody,
      errors: [409, 422],
      response: { status: 200, description: 'The process', schema: ReviewSchema },
      handler: async ({ client, params, body, call }) =>
        toRegistrationReviewJson(await sellers.sendRequestedFields({ clientId: client.clientId, processId: params.processId, raw: body.raw }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sellers/registration-reviews/{processId}/cancel',
      operationId: 'cancelSandboxRegistrationReview',
      summary: 'Sandbox: the provider cancels a process',
      tags,
      resource: 'sellers',
      sandboxOnly: true,
      params: ReviewParams,
      errors: [422],
      response: { status: 200, description: 'The canceled process', schema: ReviewSchema },
      handler: async ({ client, params, call }) =>
        toRegistrationReviewJson(await sellers.cancelRegistrationReview({ clientId: client.clientId, processId: params.processId }, call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sellers/{id}/registration-reviews',
      operationId: 'listSellerRegistrationReviews',
      summary: "List a seller's registration review processes, newest first",
      tags,
      resource: 'sellers',
      params: SellerReviewParams,
      query: ListReviewsQuery,
      response: { status: 200, description: 'A page of processes', schema: ReviewListSchema },
      handler: async ({ client, params, query, call }) => {
        const answer = await sellers.listRegistrationReviews(
          { clientId: client.clientId, sellerId: params.id, statuses: query.status, reviewType: query.reviewType, page: page(query) },
          call,
        );
        return toList(answer.items.map(toRegistrationReviewJson), answer.meta);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sellers/{id}/registration-reviews',
      operationId: 'openSandboxRegistrationReview',
      summary: 'Sandbox: the provider opens a process for a seller',
      tags,
      resource: 'sellers',
      sandboxOnly: true,
      params: SellerReviewParams,
      body: OpenSellerReviewBody,
      response: { status: 201, description: 'The process', schema: ReviewSchema },
      errors: [409, 422],
      handler: async ({ client, params, body, call }) =>
        toRegistrationReviewJson(
          await sellers.openRegistrationReview(
            {
              clientId: client.clientId,
              sellerId: params.id,
              documentType: '',
              documentNumber: '',
              reviewType: body.reviewType,
              deadlineAt: body.deadlineAt,
              expiresAt: body.expiresAt,
              rawGiven: body.raw !== undefined,
              raw: body.raw ?? [],
            },
            call,
          ),
        ),
    }),
  ];
}
