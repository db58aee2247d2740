import { createHash } from 'node:crypto';
import { errors } from '@platform/kit';
import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import type { GatewayClients } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { z } from '../../openapi/zod';

const tags = [TAGS.charges] as const;
const PNG = 'image/png';

/** The SANDBOX provider's transaction ids (payments' src/providers/sandbox.ts): anything else is not asked for. */
const TRANSACTION_ID = /^sbx_[0-9a-f]{32}$/;

const DocumentParams = z.object({
  transactionId: z.string().openapi({
    description: "The SANDBOX transaction id in the charge's image URL (random: whoever has the URL may see the image)",
    example: 'sbx_3f9c2a7e5b1d4c8fa6e0b2d9c7a1e5f3',
  }),
});

/**
 * What an image URL shows never changes (the charge's document is fixed when it is made), so any cache may keep it
 * for good. The ETag names the data and how it is drawn: a change of drawing changes it.
 */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
const DRAWING = 'qr-m-320+itf-2x13mm';

export function pngHeaders(paymentType: string, data: string): Record<string, string> {
  const digest = createHash('sha256').update(`${DRAWING}\n${paymentType}\n${data}`).digest('base64url');
  return { 'Cache-Control': CACHE_CONTROL, ETag: `"${digest}"` };
}

/** The Pix payload as a QR code, 320 px square with the standard four-module quiet zone. */
export function drawPixQrCode(payload: string): Promise<Buffer> {
  return QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 320 });
}

/**
 * The boleto's 44-digit barcode as FEBRABAN prints it: Interleaved 2 of 5, no check digit of its own (the code
 * carries its own), 13 mm high, with quiet zones on both sides.
 */
export function drawBoletoBarcode(barcode: string): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: 'interleaved2of5',
    text: barcode,
    includecheck: false,
    includetext: false,
    scale: 2,
    height: 13,
    paddingwidth: 10,
    paddingheight: 4,
    backgroundcolor: 'FFFFFF',
  });
}

/**
 * The images a SANDBOX Pix or boleto charge links to (`qrCodeImageUrl`, `barcodeImageUrl`). Public, as a real
 * provider's are: a payer's browser or a banking app loads them without the client's credentials. The transaction
 * id in the URL is the key (122 random bits, known only from the client's charge); payments finds the document by
 * it, and any other id, well-formed or not, is the same 404.
 */
export function sandboxDocumentRoutes({ payments }: Pick<GatewayClients, 'payments'>): RouteDefinition[] {
  const documentOf = async (transactionId: string, paymentType: 'pix' | 'boleto', call: Parameters<typeof payments.getSandboxPaymentDocument>[1]) => {
    if (!TRANSACTION_ID.test(transactionId)) throw errors.notFound('Payment document');
    return payments.getSandboxPaymentDocument({ transactionId, paymentType }, call);
  };
  return [
    defineRoute({
      method: 'get',
      path: '/v1/sandbox/pix/{transactionId}.png',
      operationId: 'getSandboxPixQrCode',
      summary: "A SANDBOX Pix charge's QR code image (its qrCodeImageUrl)",
      description:
        'A PNG of the QR code holding the charge\'s `qrCodeData`, 320 px square. No credentials: the URL itself is the key. ' +
        'Cacheable for good (`Cache-Control: immutable`, an ETag; `If-None-Match` answers 304). Any other id: 404.',
      tags,
      resource: 'public',
      params: DocumentParams,
      response: { status: 200, description: 'The QR code', binary: [PNG] },
      handler: async ({ params, call }) => {
        const document = await documentOf(params.transactionId, 'pix', call);
        return { contentType: PNG, data: await drawPixQrCode(document.data), headers: pngHeaders(document.paymentType, document.data) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sandbox/boleto/{transactionId}.png',
      operationId: 'getSandboxBoletoBarcode',
      summary: "A SANDBOX boleto charge's barcode image (its barcodeImageUrl)",
      description:
        "A PNG of the boleto's 44-digit barcode (`barcodeData`) as Interleaved 2 of 5, 13 mm high. No credentials: the URL itself is the key. " +
        'Cacheable for good (`Cache-Control: immutable`, an ETag; `If-None-Match` answers 304). Any other id: 404.',
      tags,
      resource: 'public',
      params: DocumentParams,
      response: { status: 200, description: 'The barcode', binary: [PNG] },
      handler: async ({ params, call }) => {
        const document = await documentOf(params.transactionId, 'boleto', call);
        return { contentType: PNG, data: await drawBoletoBarcode(document.data), headers: pngHeaders(document.paymentType, document.data) };
      },
    }),
  ];
}
