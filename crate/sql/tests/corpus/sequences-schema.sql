-- Invoices numbered by a sequence, the way PostgreSQL numbers them; payments by an
-- identity column with its own cache.
CREATE SEQUENCE invoice_seq INCREMENT BY 1 CACHE 1;

-- hotrow: rows=1000000
CREATE TABLE invoices (
  id BIGINT PRIMARY KEY DEFAULT nextval('invoice_seq'),
  customer_id BIGINT NOT NULL,
  total NUMERIC(12, 2)
);

CREATE TABLE payments (
  id BIGINT GENERATED ALWAYS AS IDENTITY (CACHE 50) PRIMARY KEY,
  invoice_id BIGINT NOT NULL
);
