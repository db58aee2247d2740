-- Plans, the double-entry split ledger, payment batches and prepayment of each client; every query filters by
-- client_id. Amounts are minor units; calendar dates are Brasília dates.

-- Fees by payment type and installment range, settlement days per method, the prepayment rate. Exactly one plan of
-- each client is its default (created with the client's first use).
CREATE TABLE plans (
  id                      UUID PRIMARY KEY,
  client_id               UUID NOT NULL,
  name                    TEXT NOT NULL,
  is_default              BOOLEAN NOT NULL,
  fees                    JSONB NOT NULL,
  settlement_days         JSONB NOT NULL,
  prepayment_monthly_rate INTEGER NOT NULL CHECK (prepayment_monthly_rate BETWEEN 0 AND 10000),
  created_at              TIMESTAMPTZ NOT NULL,
  updated_at              TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX plans_one_default ON plans (client_id) WHERE is_default;
CREATE INDEX plans_by_client ON plans (client_id, created_at);

-- What this service knows of the sellers, from the sellers service's events: their plan and status.
CREATE TABLE sellers (
  client_id  UUID NOT NULL,
  id         UUID NOT NULL,
  plan_id    UUID,
  status     TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (client_id, id)
);

-- Each charge taken into the ledger, and what of it was posted so far (events may repeat or come late).
CREATE TABLE ledger_charges (
  client_id        UUID NOT NULL,
  charge_id        UUID NOT NULL,
  payment_type     TEXT NOT NULL,
  installments     INTEGER NOT NULL,
  captured_amount  BIGINT NOT NULL,
  refunded_amount  BIGINT NOT NULL DEFAULT 0,
  charged_back     BOOLEAN NOT NULL DEFAULT false,
  created_at       TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (client_id, charge_id)
);

-- One receivable per receiver per installment. Its amounts as created are kept here; what it still owes is the sum of
-- the ledger entries tagged with it. Status: pending (future), prepaid (committed to a prepayment), settled.
CREATE TABLE receivables (
  id                       UUID PRIMARY KEY,
  client_id                UUID NOT NULL,
  charge_id                UUID NOT NULL,
  receiver_id              UUID,
  installment              INTEGER NOT NULL,
  total_installments       INTEGER NOT NULL,
  payment_type             TEXT NOT NULL,
  gross                    BIGINT NOT NULL CHECK (gross >= 0),
  fee                      BIGINT NOT NULL CHECK (fee >= 0),
  net                      BIGINT NOT NULL CHECK (net >= 0),
  original_settlement_date DATE NOT NULL,
  settlement_date          DATE NOT NULL,
  status                   TEXT NOT NULL CHECK (status IN ('pending', 'prepaid', 'settled')),
  prepayment_id            UUID,
  batch_id                 UUID,
  created_at               TIMESTAMPTZ NOT NULL
);
CREATE INDEX receivables_due ON receivables (client_id, status, settlement_date);
CREATE INDEX receivables_by_charge ON receivables (client_id, charge_id);
CREATE INDEX receivables_by_receiver ON receivables (client_id, receiver_id, status);

-- The ledger: postings of entries that add up to zero, never changed or removed.
CREATE TABLE postings (
  id         UUID PRIMARY KEY,
  client_id  UUID NOT NULL,
  kind       TEXT NOT NULL,
  -- What the posting is for (`capture:<charge>`, `settle:<receivable>`...): one posting per reference.
  reference  TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  UNIQUE (client_id, reference)
);

CREATE TABLE ledger_entries (
  id            BIGSERIAL PRIMARY KEY,
  posting_id    UUID NOT NULL REFERENCES postings (id),
  client_id     UUID NOT NULL,
  -- Debit positive, credit negative.
  account       TEXT NOT NULL,
  amount        BIGINT NOT NULL CHECK (amount <> 0),
  receivable_id UUID,
  created_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX ledger_entries_by_account ON ledger_entries (client_id, account);
CREATE INDEX ledger_entries_by_receivable ON ledger_entries (client_id, receivable_id) WHERE receivable_id IS NOT NULL;
CREATE INDEX ledger_entries_by_posting ON ledger_entries (posting_id);

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- Every posting balances to zero, checked when its transaction commits.
CREATE FUNCTION ledger_posting_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total BIGINT;
BEGIN
  SELECT COALESCE(SUM(amount), 0) INTO total FROM ledger_entries WHERE posting_id = NEW.posting_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'posting % does not balance: %', NEW.posting_id, total;
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_posting_balanced();

-- What refunds and chargebacks took from a receiver's available balance (no future receivable was left): an order of
-- the next batch.
CREATE TABLE receiver_debits (
  id          UUID PRIMARY KEY,
  client_id   UUID NOT NULL,
  receiver_id UUID,
  charge_id   UUID NOT NULL,
  -- void, charge_back
  type        TEXT NOT NULL,
  amount      BIGINT NOT NULL CHECK (amount > 0),
  batch_id    UUID,
  created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX receiver_debits_open ON receiver_debits (client_id, receiver_id) WHERE batch_id IS NULL;

-- A transfer to one receiver: its orders add up to `amount`.
CREATE TABLE payment_batches (
  id             UUID PRIMARY KEY,
  client_id      UUID NOT NULL,
  receiver_id    UUID,
  payment_date   DATE NOT NULL,
  -- pending, paid, failed, offset
  status         TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'failed', 'offset')),
  payment_method TEXT NOT NULL,
  amount         BIGINT NOT NULL,
  fee_amount     BIGINT NOT NULL,
  refund_amount  BIGINT NOT NULL,
  final_balance  BIGINT NOT NULL,
  attempts       INTEGER NOT NULL DEFAULT 0,
  created_at     TIMESTAMPTZ NOT NULL,
  updated_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_batches_by_client ON payment_batches (client_id, payment_date DESC, created_at DESC);
CREATE INDEX payment_batches_waiting ON payment_batches (client_id, receiver_id) WHERE status IN ('pending', 'failed');

CREATE TABLE payment_orders (
  id                   UUID PRIMARY KEY,
  client_id            UUID NOT NULL,
  batch_id             UUID NOT NULL REFERENCES payment_batches (id),
  charge_id            UUID NOT NULL,
  receiver_id          UUID,
  receivable_id        UUID,
  amount               BIGINT NOT NULL,
  gross_amount         BIGINT NOT NULL,
  total_fee_amount     BIGINT NOT NULL,
  installment          INTEGER NOT NULL,
  total_installments   INTEGER NOT NULL,
  payment_method       TEXT NOT NULL,
  -- authorization, void, charge_back
  type                 TEXT NOT NULL,
  payment_scheduled_at DATE NOT NULL,
  created_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_orders_by_batch ON payment_orders (client_id, batch_id);
CREATE INDEX payment_orders_by_charge ON payment_orders (client_id, charge_id);
CREATE INDEX payment_orders_by_date ON payment_orders (client_id, payment_scheduled_at DESC, created_at DESC);

-- Prepayment simulations and commits. Items: the receivables, each with its days and fee.
CREATE TABLE prepayments (
  id           UUID PRIMARY KEY,
  client_id    UUID NOT NULL,
  receiver_id  UUID,
  status       TEXT NOT NULL CHECK (status IN ('pending', 'committed', 'expired')),
  gross_amount BIGINT NOT NULL,
  fee_amount   BIGINT NOT NULL,
  net_amount   BIGINT NOT NULL,
  monthly_rate INTEGER NOT NULL,
  payment_date DATE NOT NULL,
  expires_at   TIMESTAMPTZ NOT NULL,
  items        JSONB NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL,
  committed_at TIMESTAMPTZ
);
CREATE INDEX prepayments_by_client ON prepayments (client_id, created_at DESC);
