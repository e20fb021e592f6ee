-- Serialising a tenant's work with advisory locks, and a table lock.
-- hotrow: rows=1000
CREATE TABLE balances (
  tenant_id INT PRIMARY KEY,
  amount BIGINT NOT NULL
);

-- hotrow: name=settle
BEGIN;
SELECT pg_advisory_xact_lock(42);
UPDATE balances SET amount = amount + $2 WHERE tenant_id = $1;
COMMIT;
-- hotrow: name=audit
BEGIN;
LOCK TABLE balances IN SHARE MODE;
SELECT amount FROM balances WHERE tenant_id = $1;
COMMIT;
