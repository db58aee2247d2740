import { RECEIPT_CONTENT_TYPE } from '@platform/api-model';
import type { GatewayClients } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { toCreateReceiptRequest, toReceiptJson } from './mapping';
import { CreateReceiptBody, ReceiptParams, ReceiptSchema } from './schemas';

const tags = [TAGS.receipts] as const;

/** Saved under a name that says which receipt it is (`curl -OJ`, a browser's download); the service serves UUIDs only. */
const fileHeaders = (id: string) => ({ 'Content-Disposition': `inline; filename="receipt-${id}.pdf"` });

export function receiptRoutes({ payments, publicUrl }: Pick<GatewayClients, 'payments'> & { publicUrl: string }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/receipts',
      operationId: 'createReceipt',
      summary: 'Make the receipt of a voided or refunded charge',
      description:
        "A one-page PDF for a charge of the platform's own provider: `refund_receipt` of a refunded charge, `cancellation_letter` of a voided or " +
        'fully refunded one. It is made once: asking again for the same charge and type answers the same receipt and file. ' +
        'Any other charge: 422 `receipt_not_available`.',
      tags,
      resource: 'receipts',
      body: CreateReceiptBody,
      errors: [404, 422],
      response: { status: 201, description: 'The receipt', schema: ReceiptSchema },
      handler: async ({ client, body, call }) => toReceiptJson(await payments.createReceipt(toCreateReceiptRequest(client.clientId, body), call), publicUrl),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/receipts/{id}',
      operationId: 'getReceipt',
      summary: 'Get a receipt',
      tags,
      resource: 'receipts',
      params: ReceiptParams,
      response: { status: 200, description: 'The receipt', schema: ReceiptSchema },
      handler: async ({ client, params, call }) => toReceiptJson(await payments.getReceipt({ clientId: client.clientId, id: params.id }, call), publicUrl),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/receipts/{id}/file',
      operationId: 'downloadReceipt',
      summary: "Download a receipt's PDF",
      description: 'The file exactly as it was made.',
      tags,
      resource: 'receipts',
      params: ReceiptParams,
      response: { status: 200, description: 'The PDF', binary: [RECEIPT_CONTENT_TYPE] },
      handler: async ({ client, params, call }) => {
        const file = await payments.readReceiptFile({ clientId: client.clientId, id: params.id }, call);
        return { contentType: file.contentType, data: file.data, headers: fileHeaders(params.id) };
      },
    }),
  ];
}
