-- A job queue: each worker takes the oldest ready job, skipping those others hold.
-- hotrow: rows=100000
CREATE TABLE jobs (
  id BIGSERIAL PRIMARY KEY,
  state TEXT NOT NULL,
  payload JSONB
);

-- hotrow: name=take_job
BEGIN;
SET LOCAL lock_timeout = '1s';
SELECT id, payload FROM jobs WHERE state = 'ready' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED;
UPDATE jobs SET state = 'done' WHERE id = $1;
COMMIT;
