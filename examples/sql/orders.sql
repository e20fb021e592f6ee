-- The shop's transactions: nine in ten place an order (the order, three items, the
-- stock of each item's product, the day's counter), one in ten reads an order back.
-- Four in five stock updates go to a fifth of the products (the annotation says so:
-- a `?` alone would be any product, uniformly).

-- hotrow: name=place_order, weight=9
START TRANSACTION;
INSERT INTO orders (order_ref, customer_id, created) VALUES (?, ?, NOW());
INSERT INTO order_items (order_id, product_id, qty)
  VALUES (LAST_INSERT_ID(), ?, 1), (LAST_INSERT_ID(), ?, 2), (LAST_INSERT_ID(), ?, 1);
-- hotrow: key=hotspot(0.2, 0.8)
UPDATE stock SET qty = qty - 1 WHERE product_id IN (?, ?, ?);
UPDATE daily_counters SET orders = orders + 1 WHERE day = CURDATE();
COMMIT;

-- hotrow: name=order_status, weight=1
SELECT id, created FROM orders WHERE id = ?;
