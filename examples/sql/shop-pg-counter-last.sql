-- The shop's transaction with the order counted last: the two `inventory` updates come
-- first, each product drawn on its own, so two orders can take the same two products in
-- opposite orders and wait for each other (a lock-order cycle). Add `sort_keys=true` to the
-- annotation below and each order takes its products in key order: no cycle.

-- hotrow: name=place_order, weight=1
BEGIN;
INSERT INTO orders (customer_id, created) VALUES ($1, now());
INSERT INTO order_lines (order_id, product_id, qty) VALUES ($2, $3, 1), ($2, $4, 2);
-- hotrow: key=zipfian(0.99)
UPDATE inventory SET qty = qty - 1 WHERE product_id = $3;
-- hotrow: key=zipfian(0.99)
UPDATE inventory SET qty = qty - 2 WHERE product_id = $4;
UPDATE counters SET n = n + 1 WHERE name = 'orders';
COMMIT;
