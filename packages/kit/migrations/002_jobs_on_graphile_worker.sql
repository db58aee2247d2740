-- Durable jobs now live in graphile-worker's schema (graphile_worker), installed at start-up before these files run.
-- Work still waiting in the old table moves there with its kind, payload, due time and dedupe key; then the table goes.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM jobs WHERE status = 'pending') THEN
    IF to_regprocedure('graphile_worker.add_job(text, json, text, timestamptz, integer, text, integer, text[], text)') IS NULL THEN
      RAISE EXCEPTION 'pending jobs remain in table jobs but graphile_worker is not installed';
    END IF;
    PERFORM graphile_worker.add_job(
      kind,
      payload::json,
      run_at => run_at,
      max_attempts => LEAST(GREATEST(max_attempts - attempts, 1), 32767),
      job_key => CASE WHEN dedupe_key IS NULL THEN NULL ELSE kind || ':' || dedupe_key END,
      job_key_mode => 'unsafe_dedupe')
    FROM jobs WHERE status = 'pending';
  END IF;
END $$;

DROP TABLE jobs;
