-- Gapless invoice numbers: one row per tenant holds the next number, taken FOR UPDATE.
-- hotrow: rows=10
CREATE TABLE invoice_numbers (
  tenant_id INT PRIMARY KEY,
  next_no BIGINT NOT NULL
);

-- hotrow: rows=1000000
CREATE TABLE invoices (
  tenant_id INT NOT NULL,
  no BIGINT NOT NULL,
  total NUMERIC(12, 2),
  PRIMARY KEY (tenant_id, no)
);

-- hotrow: name=invoice
BEGIN;
SELECT next_no FROM invoice_numbers WHERE tenant_id = $1 FOR UPDATE;
UPDATE invoice_numbers SET next_no = next_no + 1 WHERE tenant_id = $1;
INSERT INTO invoices (tenant_id, no, total) VALUES ($1, $2, $3);
COMMIT;
