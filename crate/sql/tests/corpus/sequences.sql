-- hotrow: name=invoice, weight=2
BEGIN;
SELECT nextval('invoice_seq');
INSERT INTO invoices (id, customer_id, total) VALUES ($1, $2, $3);
INSERT INTO payments (invoice_id) VALUES ($1);
COMMIT;
-- hotrow: name=invoice_inline
INSERT INTO invoices (id, customer_id, total) VALUES (nextval('invoice_seq'), $1, $2);
