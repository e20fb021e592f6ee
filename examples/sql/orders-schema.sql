-- An online shop on MySQL Cluster: orders and their items both take AUTO_INCREMENT ids,
-- an order's public reference is UNIQUE, and one counter row per day counts the day's
-- orders.

-- hotrow: rows=1000000
CREATE TABLE orders (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_ref CHAR(20) NOT NULL,
  customer_id BIGINT NOT NULL,
  created DATETIME NOT NULL,
  UNIQUE KEY (order_ref)
) ENGINE=NDBCLUSTER;

-- hotrow: rows=3000000
CREATE TABLE order_items (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_id BIGINT NOT NULL,
  product_id BIGINT NOT NULL,
  qty INT NOT NULL
) ENGINE=NDBCLUSTER;

-- hotrow: rows=10000
CREATE TABLE stock (
  product_id BIGINT NOT NULL PRIMARY KEY,
  qty INT NOT NULL
) ENGINE=NDBCLUSTER;

-- hotrow: rows=3650
CREATE TABLE daily_counters (
  day DATE NOT NULL PRIMARY KEY,
  orders INT NOT NULL
) ENGINE=NDBCLUSTER;
