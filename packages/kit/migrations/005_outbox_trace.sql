-- The trace context (W3C traceparent, tracestate) an event was written in, carried to NATS as message headers so
-- the consumers' work joins the trace of the call that caused it. NULL when tracing is off.
ALTER TABLE outbox ADD COLUMN headers JSONB;
