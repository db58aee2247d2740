-- Who may attempt a pending delivery now: an attempt claims the row until this time (its send's timeout and some
-- margin) and clears it when it records its outcome. The first attempt made by the process that fanned the event out
-- and the delivery's durable job both claim it, so they never send the same attempt twice; a claim whose holder died
-- expires, and the job then delivers. NULL: nobody holds it.
ALTER TABLE deliveries ADD COLUMN claimed_until TIMESTAMPTZ;
