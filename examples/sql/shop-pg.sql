-- The shop's one transaction: count the order in `counters`, insert the order and two
-- lines, take the two products from `inventory` (a few products sell most: Zipfian).

-- hotrow: name=place_order, weight=1
BEGIN;
UPDATE counters SET n = n + 1 WHERE name = 'orders';
INSERT INTO orders (customer_id, created) VALUES ($1, now());
INSERT INTO order_lines (order_id, product_id, qty) VALUES ($2, $3, 1), ($2, $4, 2);
-- hotrow: key=zipfian(0.99)
UPDATE inventory SET qty = qty - 1 WHERE product_id = $3;
-- hotrow: key=zipfian(0.99)
UPDATE inventory SET qty = qty - 2 WHERE product_id = $4;
COMMIT;
