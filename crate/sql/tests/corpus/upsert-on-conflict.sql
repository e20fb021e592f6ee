-- PostgreSQL's upsert: the counter row is inserted once, then updated by every order.
-- hotrow: name=count_order
BEGIN;
INSERT INTO counters (name, n) VALUES ('orders', 1)
  ON CONFLICT (name) DO UPDATE SET n = counters.n + 1
  RETURNING n;
INSERT INTO orders (id, customer_id, n) VALUES ($1, $2, $3);
COMMIT;
