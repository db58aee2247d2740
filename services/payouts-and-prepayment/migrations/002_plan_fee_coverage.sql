-- Every plan prices every installment count a charge accepts: credit 1 to 24, the other payment types 1. Plans stored
-- before this rule (the first default plan stopped credit at 12 installments) settled such charges with no fee at
-- all. Each count a plan leaves uncovered gets the default plan's fee for it, as rules appended to the plan's fees
-- (consecutive counts under the same default rule make one rule). The rules a plan already has are not touched, so
-- running this again changes nothing.
WITH default_fees (payment_type, installments_from, installments_to, percentage, fixed_amount) AS (
  VALUES
    ('credit', 1, 1, 299, 0),
    ('credit', 2, 6, 349, 0),
    ('credit', 7, 12, 399, 0),
    ('credit', 13, 18, 449, 0),
    ('credit', 19, 24, 499, 0),
    ('debit', 1, 1, 199, 0),
    ('pix', 1, 1, 99, 0),
    ('boleto', 1, 1, 0, 349),
    ('voucher', 1, 1, 499, 0)
),
uncovered AS (
  SELECT p.id AS plan_id, d.payment_type, d.installments_from AS band, d.percentage, d.fixed_amount, n
  FROM plans p
  CROSS JOIN default_fees d
  CROSS JOIN LATERAL generate_series(d.installments_from, d.installments_to) AS n
  WHERE NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements(p.fees) AS f
    WHERE f ->> 'paymentType' = d.payment_type AND (f ->> 'installmentsFrom')::int <= n AND n <= (f ->> 'installmentsTo')::int
  )
),
runs AS (
  SELECT plan_id, payment_type, percentage, fixed_amount, min(n) AS installments_from, max(n) AS installments_to
  FROM (
    SELECT u.*, n - row_number() OVER (PARTITION BY plan_id, payment_type, band ORDER BY n) AS run
    FROM uncovered u
  ) AS numbered
  GROUP BY plan_id, payment_type, band, percentage, fixed_amount, run
),
added AS (
  SELECT plan_id,
         jsonb_agg(
           jsonb_build_object('paymentType', payment_type, 'installmentsFrom', installments_from, 'installmentsTo', installments_to,
                              'percentage', percentage, 'fixedAmount', fixed_amount)
           ORDER BY array_position(ARRAY['credit', 'debit', 'pix', 'boleto', 'voucher'], payment_type), installments_from
         ) AS fees
  FROM runs
  GROUP BY plan_id
)
UPDATE plans SET fees = plans.fees || added.fees
FROM added
WHERE plans.id = added.plan_id;
