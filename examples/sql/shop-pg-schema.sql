-- A PostgreSQL shop: orders and their lines take SERIAL ids, one row of `counters` counts
-- every order, and the stock of each product is one row of `inventory`.

-- hotrow: rows=1
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  n BIGINT NOT NULL
);

-- hotrow: rows=1000000
CREATE TABLE orders (
  id SERIAL PRIMARY KEY,
  customer_id BIGINT NOT NULL,
  created TIMESTAMPTZ NOT NULL
);

-- hotrow: rows=3000000
CREATE TABLE order_lines (
  id BIGSERIAL PRIMARY KEY,
  order_id BIGINT NOT NULL,
  product_id BIGINT NOT NULL,
  qty INT NOT NULL
);

-- hotrow: rows=100000
CREATE TABLE inventory (
  product_id BIGINT PRIMARY KEY,
  qty INT NOT NULL
);
