import type { Queryable } from '@platform/kit';
import { EMPTY_OUTCOMES, eliminationThreshold, keptAttempts, type ProviderOutcomes, type SuccessRateSettings } from '../domain/successRate';

/** Whose outcomes: a client's merchant, for one payment type and card brand ('' without a card). */
export interface OutcomeScope {
  clientId: string;
  merchantId: string;
  paymentType: string;
  cardBrand: string;
}

/** The outcomes of the given provider entries in one scope; an entry never tried has none. */
export async function loadOutcomes(db: Queryable, scope: OutcomeScope, providerIds: string[]): Promise<Map<string, ProviderOutcomes>> {
  const found = new Map<string, ProviderOutcomes>(providerIds.map((id) => [id, EMPTY_OUTCOMES]));
  if (providerIds.length === 0) return found;
  const { rows } = await db.query<{ provider_id: string; recent: string; tripped_at: Date | null }>(
    `SELECT provider_id, recent, tripped_at FROM provider_outcomes
      WHERE client_id = $1 AND merchant_id = $2 AND payment_type = $3 AND card_brand = $4 AND provider_id = ANY($5::text[])`,
    [scope.clientId, scope.merchantId, scope.paymentType, scope.cardBrand, providerIds],
  );
  for (const row of rows) found.set(row.provider_id, { recent: row.recent, trippedAt: row.tripped_at });
  return found;
}

/**
 * Appends a charge's attempts, one statement for all its providers: each entry's letters (oldest first) are added
 * to its window, which keeps its latest `keptAttempts` letters, and the entry is taken out (tripped_at) when the
 * technical failures of its latest `eliminationWindow` letters reach the threshold, taken out again by a technical
 * failure after its cool-down, and back in when they fall below it: appendOutcomes (domain/successRate.ts), done by
 * the database so that replicas recording at the same time add to the same window.
 */
export async function recordOutcomes(db: Queryable, scope: OutcomeScope, marks: Map<string, string>, now: Date, settings: SuccessRateSettings): Promise<void> {
  if (marks.size === 0) return;
  const ids = [...marks.keys()];
  const letters = ids.map((id) => marks.get(id)!);
  const technical = (text: string) => `length(right(${text}, $8)) - length(replace(right(${text}, $8), 't', ''))`;
  await db.query(
    `INSERT INTO provider_outcomes AS o (client_id, merchant_id, payment_type, card_brand, provider_id, recent, tripped_at, updated_at)
     SELECT $1, $2, $3, $4, m.provider_id, right(m.recent, $7),
            CASE WHEN ${technical('m.recent')} >= $9 THEN $10::timestamptz END, $10
       FROM unnest($5::text[], $6::text[]) AS m (provider_id, recent)
     ON CONFLICT (client_id, merchant_id, payment_type, card_brand, provider_id) DO UPDATE SET
       recent = right(o.recent || EXCLUDED.recent, $7),
       tripped_at = CASE WHEN ${technical('o.recent || EXCLUDED.recent')} >= $9 THEN
                      CASE WHEN o.tripped_at IS NULL
                             OR (strpos(EXCLUDED.recent, 't') > 0 AND o.tripped_at <= EXCLUDED.updated_at - $11::int * interval '1 millisecond')
                           THEN EXCLUDED.updated_at ELSE o.tripped_at END
                    END,
       updated_at = EXCLUDED.updated_at`,
    [scope.clientId, scope.merchantId, scope.paymentType, scope.cardBrand, ids, letters, keptAttempts(settings), settings.eliminationWindow, eliminationThreshold(settings), now, settings.cooldownMs],
  );
}
