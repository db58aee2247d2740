-- The job workers alive now: each running job runner renews its workers' rows. Jobs still locked by a worker that
-- stopped renewing (its process was killed) are released to the other runners once the lease has passed.
CREATE TABLE job_workers (
  worker_id TEXT PRIMARY KEY,
  seen_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
