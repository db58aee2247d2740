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
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  await db.query(outcomesUpsert({ scope, marks, now, settings }, param), values);
}

/** A charge's attempts to append to its providers' windows (recordOutcomes). */
export interface OutcomesToRecord {
  scope: OutcomeScope;
  marks: Map<string, string>;
  now: Date;
  settings: SuccessRateSettings;
}

/**
 * The upsert of recordOutcomes, its values added through `param` (so that it can be one part of a larger statement),
 * its rows taken only where `condition` holds. The entries go in the order of their ids, so that two charges that
 * tried the same providers in another order lock their rows in the same order.
 */
export function outcomesUpsert(input: OutcomesToRecord, param: (value: unknown) => string, condition = 'true'): string {
  const { scope, marks, now, settings } = input;
  const ids = [...marks.keys()].sort();
  const letters = ids.map((id) => marks.get(id)!);
  const [clientId, merchantId, paymentType, cardBrand, idList, letterList, kept, eliminationWindow, threshold, at, cooldown] = [
    param(scope.clientId),
    param(scope.merchantId),
    param(scope.paymentType),
    param(scope.cardBrand),
    param(ids),
    param(letters),
    param(keptAttempts(settings)),
    param(settings.eliminationWindow),
    param(eliminationThreshold(settings)),
    param(now),
    param(settings.cooldownMs),
  ];
  const technical = (text: string) => `length(right(${text}, ${eliminationWindow})) - length(replace(right(${text}, ${eliminationWindow}), 't', ''))`;
  return `INSERT INTO provider_outcomes AS o (client_id, merchant_id, payment_type, card_brand, provider_id, recent, tripped_at, updated_at)
     SELECT ${clientId}, ${merchantId}, ${paymentType}, ${cardBrand}, m.provider_id, right(m.recent, ${kept}),
            CASE WHEN ${technical('m.recent')} >= ${threshold} THEN ${at}::timestamptz END, ${at}
       FROM unnest(${idList}::text[], ${letterList}::text[]) WITH ORDINALITY AS m (provider_id, recent, n)
      WHERE ${condition}
      ORDER BY m.n
     ON CONFLICT (client_id, merchant_id, payment_type, card_brand, provider_id) DO UPDATE SET
       recent = right(o.recent || EXCLUDED.recent, ${kept}),
       tripped_at = CASE WHEN ${technical('o.recent || EXCLUDED.recent')} >= ${threshold} THEN
                      CASE WHEN o.tripped_at IS NULL
                             OR (strpos(EXCLUDED.recent, 't') > 0 AND o.tripped_at <= EXCLUDED.updated_at - ${cooldown}::int * interval '1 millisecond')
                           THEN EXCLUDED.updated_at ELSE o.tripped_at END
                    END,
       updated_at = EXCLUDED.updated_at`;
}
