-- DBT2's five transactions (TPC-C clause 2) as the statements they send through mysqld.
-- `:w_id` is the terminal's warehouse: every statement giving a warehouse column `:w_id`
-- lands on that warehouse's partition. What SQL cannot say is said in `-- hotrow:` lines:
-- New-Order's 5 to 15 order lines (`repeat`), 1% of their stock from another warehouse and
-- 15% of Payment's customers (`remote`), a customer found by last name 60% of the time
-- (`share`), and how many rows a partly given key reads (`rows`).

-- hotrow: name=New-Order, weight=45, client=w_id
BEGIN;
SELECT w_tax FROM warehouse WHERE w_id = :w_id;
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = :w_id AND d_id = :d_id;
SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local)
  VALUES (:o_id, :d_id, :w_id, :c_id, NOW(), :ol_cnt, 1);
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (:o_id, :d_id, :w_id);
-- hotrow: repeat=5..15, statements=3
SELECT i_price, i_name, i_data FROM item WHERE i_id = :i_id;
-- hotrow: remote=0.01
UPDATE stock SET s_quantity = s_quantity - :qty, s_order_cnt = s_order_cnt + 1
  WHERE s_w_id = :w_id AND s_i_id = :i_id;
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info)
  VALUES (:o_id, :d_id, :w_id, :ol_number, :i_id, :w_id, :qty, :amount, :dist_info);
COMMIT;

-- hotrow: name=Payment, weight=43, client=w_id
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + :amount WHERE w_id = :w_id;
UPDATE district SET d_ytd = d_ytd + :amount WHERE d_w_id = :w_id AND d_id = :d_id;
-- hotrow: share=0.6, rows=3
SELECT c_id FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_last = :c_last;
-- hotrow: remote=0.15
SELECT c_first, c_last, c_balance FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
UPDATE customer SET c_balance = c_balance - :amount, c_ytd_payment = c_ytd_payment + :amount
  WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (:c_id, :d_id, :w_id, :d_id, :w_id, NOW(), :amount, :h_data);
COMMIT;

-- hotrow: name=Order-Status, weight=4, client=w_id
BEGIN;
SELECT c_balance, c_first, c_last FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
SELECT o_id, o_carrier_id, o_entry_d FROM orders
  WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_c_id = :c_id ORDER BY o_id DESC LIMIT 1;
-- hotrow: rows=10
SELECT ol_i_id, ol_quantity, ol_amount FROM order_line WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id;
COMMIT;

-- hotrow: name=Delivery, weight=4, client=w_id
BEGIN;
-- hotrow: repeat=10, statements=5
SELECT no_o_id FROM new_order WHERE no_w_id = :w_id AND no_d_id = :d_id ORDER BY no_o_id LIMIT 1;
DELETE FROM new_order WHERE no_w_id = :w_id AND no_d_id = :d_id AND no_o_id = :o_id;
UPDATE orders SET o_carrier_id = :carrier WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_id = :o_id;
-- hotrow: rows=10
UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id;
UPDATE customer SET c_balance = c_balance + :total, c_delivery_cnt = c_delivery_cnt + 1
  WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
COMMIT;

-- hotrow: name=Stock-Level, weight=4, client=w_id
BEGIN;
SELECT d_next_o_id FROM district WHERE d_w_id = :w_id AND d_id = :d_id;
-- hotrow: rows=20
SELECT ol_i_id FROM order_line WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id >= :first_o_id;
-- hotrow: rows=20
SELECT COUNT(*) FROM stock WHERE s_w_id = :w_id AND s_quantity < :threshold;
COMMIT;
