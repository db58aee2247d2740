import type { Queryable } from '@platform/kit';

/** The authorization attempts made with a card, what the card brands' retry rules count (migration 014). */

export interface CardAttempt {
  idempotencyKey: string;
  clientId: string;
  cardFingerprint: string;
  cardBrand: string;
  chargeId: string;
  providerType: string;
  outcome: 'authorized' | 'pending' | 'declined' | 'failed' | 'canceled';
  declinedCode: string | null;
  decision: string | null;
  attemptedAt: Date;
}

/** Records an attempt once: the same attempt again (a charge run again after a crash) changes nothing. */
export async function recordCardAttempt(db: Queryable, attempt: CardAttempt): Promise<void> {
  await db.query(
    `INSERT INTO card_authorization_attempts
       (idempotency_key, client_id, card_fingerprint, card_brand, charge_id, provider_type, outcome, declined_code, decision, attempted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (idempotency_key) DO NOTHING`,
    [
      attempt.idempotencyKey,
      attempt.clientId,
      attempt.cardFingerprint,
      attempt.cardBrand,
      attempt.chargeId,
      attempt.providerType,
      attempt.outcome,
      attempt.declinedCode,
      attempt.decision,
      attempt.attemptedAt,
    ],
  );
}

/** Declined or failed attempts of a card (by fingerprint, across the client) since `since`. */
export async function failedCardAttemptsSince(db: Queryable, clientId: string, cardFingerprint: string, since: Date): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM card_authorization_attempts
      WHERE client_id = $1 AND card_fingerprint = $2 AND attempted_at > $3 AND outcome IN ('declined', 'failed')`,
    [clientId, cardFingerprint, since],
  );
  return Number(rows[0]?.n ?? 0);
}
