-- A data-modifying WITH: the counter is bumped and its value numbers the new order.
WITH c AS (
  UPDATE counters SET n = n + 1 WHERE name = 'orders' RETURNING n
)
INSERT INTO orders (id, customer_id, n)
SELECT $1, $2, n FROM c;
