-- Make sure the counter exists, then count: DO NOTHING on a known key reads the row.
BEGIN;
INSERT INTO counters (name, n) VALUES ('orders', 0) ON CONFLICT DO NOTHING;
UPDATE counters SET n = n + 1 WHERE name = 'orders';
COMMIT;
