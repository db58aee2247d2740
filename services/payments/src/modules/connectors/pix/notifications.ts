import { z } from 'zod';
import { NotificationRefusedError, type NotificationReader, type NotificationReading } from '../domain/types';

/**
 * The Pix webhook (API Pix v2.9.0, `PUT /webhook/{chave}`, callback `listaPix`): the receiving PSP posts
 * `{pix: [{endToEndId, txid, valor, horario, ...}]}` to `{webhookUrl}/pix` when Pix with a txid are received and
 * when a refund of one reaches DEVOLVIDO or NAO_REALIZADO. Nothing in the body is trusted: each txid is a
 * transaction the platform asks the bank about (`GET /cob/{txid}`). The callback carries no signature; the bank
 * authenticates itself with its client certificate to the platform's edge (mutual TLS), and a forged post can
 * only make the platform ask the bank.
 */

const TXID = /^[a-zA-Z0-9]{1,35}$/;

const webhookPix = z.object({
  endToEndId: z.string().regex(/^[a-zA-Z0-9]{32}$/),
  txid: z.string().regex(TXID).optional(),
  valor: z.string().regex(/^\d{1,10}\.\d{2}$/),
  horario: z.string().min(1),
});

const webhookBody = z.object({ pix: z.array(webhookPix).min(1).max(1000) });

export const pixNotifications: NotificationReader = {
  read(notification): NotificationReading {
    let parsed: unknown;
    try {
      parsed = JSON.parse(notification.rawBody.toString('utf8'));
    } catch {
      throw new NotificationRefusedError('the body is not JSON');
    }
    const checked = webhookBody.safeParse(parsed);
    if (!checked.success) {
      const where = checked.error.issues[0]?.path.join('.') || '(body)';
      throw new NotificationRefusedError(`not an API Pix webhook body ({pix: [{endToEndId, txid, valor, horario}]}): ${where} is wrong`);
    }
    // A Pix received without a txid (to the key, outside any cob) is not a charge of the platform's.
    const txids = [...new Set(checked.data.pix.flatMap((p) => (p.txid && p.txid.length >= 26 ? [p.txid] : [])))];
    return { transactions: txids.map((transactionId) => ({ transactionId })), reply: { status: 200 } };
  },
};
