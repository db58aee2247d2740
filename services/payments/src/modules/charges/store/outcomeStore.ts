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

/** One provider entry's letters to append in one scope, oldest first, and the time of the latest of them. */
export interface OutcomeAppend {
  scope: OutcomeScope;
  providerId: string;
  letters: string;
  at: Date;
}

/**
 * Appends a charge's attempts, one statement for all its providers (recordMany with one scope).
 */
export async function recordOutcomes(db: Queryable, scope: OutcomeScope, marks: Map<string, string>, now: Date, settings: SuccessRateSettings): Promise<void> {
  await recordMany(
    db,
    [...marks].map(([providerId, letters]) => ({ scope, providerId, letters, at: now })),
    settings,
  );
}

/** The order rows are locked in: client, merchant, payment type, card brand, provider entry (the same on every replica). */
function compareAppends(a: OutcomeAppend, b: OutcomeAppend): number {
  const keyOf = (x: OutcomeAppend) => [x.scope.clientId, x.scope.merchantId, x.scope.paymentType, x.scope.cardBrand, x.providerId];
  const [ka, kb] = [keyOf(a), keyOf(b)];
  for (let i = 0; i < ka.length; i += 1) {
    if (ka[i]! < kb[i]!) return -1;
    if (ka[i]! > kb[i]!) return 1;
  }
  return 0;
}

/**
 * Appends the letters of any number of provider entries, of any scopes, in one statement: each entry's letters
 * (oldest first) are added to its window, which keeps its latest `keptAttempts` letters, and the entry is taken out
 * (tripped_at, the time `at` of its latest letter) when the technical failures of its latest `eliminationWindow`
 * letters reach the threshold, taken out again by a technical failure after its cool-down, and back in when they
 * fall below it: appendOutcomes (domain/successRate.ts) applied once with all of an entry's letters, done by the
 * database so that replicas recording at the same time add to the same window. An entry appears at most once (the
 * caller joins its letters); the rows are locked in the order of compareAppends, so that two statements with
 * entries in common take their locks in the same order.
 */
export async function recordMany(db: Queryable, appends: ReadonlyArray<OutcomeAppend>, settings: SuccessRateSettings): Promise<void> {
  const rows = appends.filter((a) => a.letters.length > 0);
  if (rows.length === 0) return;
  const sorted = [...rows].sort(compareAppends);
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  await db.query(outcomesUpsert(sorted, settings, param), values);
}

/** The upsert of recordMany, its values added through `param`, the rows in the given order. */
export function outcomesUpsert(appends: ReadonlyArray<OutcomeAppend>, settings: SuccessRateSettings, param: (value: unknown) => string): string {
  const [clients, merchants, paymentTypes, cardBrands, providers, letters, times, kept, eliminationWindow, threshold, cooldown] = [
    param(appends.map((a) => a.scope.clientId)),
    param(appends.map((a) => a.scope.merchantId)),
    param(appends.map((a) => a.scope.paymentType)),
    param(appends.map((a) => a.scope.cardBrand)),
    param(appends.map((a) => a.providerId)),
    param(appends.map((a) => a.letters)),
    param(appends.map((a) => a.at)),
    param(keptAttempts(settings)),
    param(settings.eliminationWindow),
    param(eliminationThreshold(settings)),
    param(settings.cooldownMs),
  ];
  const technical = (text: string) => `length(right(${text}, ${eliminationWindow})) - length(replace(right(${text}, ${eliminationWindow}), 't', ''))`;
  return `INSERT INTO provider_outcomes AS o (client_id, merchant_id, payment_type, card_brand, provider_id, recent, tripped_at, updated_at)
     SELECT m.client_id, m.merchant_id, m.payment_type, m.card_brand, m.provider_id, right(m.recent, ${kept}),
            CASE WHEN ${technical('m.recent')} >= ${threshold} THEN m.at END, m.at
       FROM unnest(${clients}::text[], ${merchants}::text[], ${paymentTypes}::text[], ${cardBrands}::text[], ${providers}::text[], ${letters}::text[], ${times}::timestamptz[])
            WITH ORDINALITY AS m (client_id, merchant_id, payment_type, card_brand, provider_id, recent, at, n)
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
