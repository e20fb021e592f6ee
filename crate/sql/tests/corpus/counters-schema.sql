-- The counters the idioms below update: one row per name (PostgreSQL and MySQL alike).

-- hotrow: rows=10
CREATE TABLE counters (
  name VARCHAR(64) PRIMARY KEY,
  n BIGINT NOT NULL
);

-- hotrow: rows=1000000
CREATE TABLE orders (
  id BIGINT PRIMARY KEY,
  customer_id BIGINT NOT NULL,
  n BIGINT
);
