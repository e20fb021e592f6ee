-- DBT2 (TPC-C) on MySQL Cluster, as Bug #39267 ran it: 64 warehouses (8 per data node on
-- the bug report's 8 nodes), every warehouse's rows partitioned by warehouse
-- (PARTITION BY KEY on the warehouse column), `item` by its own key, and `history` without
-- a primary key, so NDB gives it a hidden key taken from its SYSTAB_0 counter row.
-- `values=64` says how many values the warehouse column takes (the warehouses).

-- hotrow: rows=64
CREATE TABLE warehouse (
  w_id INT NOT NULL PRIMARY KEY,
  w_name VARCHAR(10), w_tax DECIMAL(4, 4), w_ytd DECIMAL(12, 2)
) ENGINE=NDBCLUSTER PARTITION BY KEY (w_id);

-- hotrow: rows=640, values=64
CREATE TABLE district (
  d_id INT NOT NULL, d_w_id INT NOT NULL,
  d_tax DECIMAL(4, 4), d_ytd DECIMAL(12, 2), d_next_o_id INT,
  PRIMARY KEY (d_w_id, d_id)
) ENGINE=NDBCLUSTER PARTITION BY KEY (d_w_id);

-- hotrow: rows=1920000, values=64
CREATE TABLE customer (
  c_id INT NOT NULL, c_d_id INT NOT NULL, c_w_id INT NOT NULL,
  c_first VARCHAR(16), c_last VARCHAR(16), c_credit CHAR(2), c_discount DECIMAL(4, 4),
  c_balance DECIMAL(12, 2), c_ytd_payment DECIMAL(12, 2), c_delivery_cnt INT,
  PRIMARY KEY (c_w_id, c_d_id, c_id)
) ENGINE=NDBCLUSTER PARTITION BY KEY (c_w_id);

-- No primary key: every insert takes a hidden key from history's counter row.
CREATE TABLE history (
  h_c_id INT, h_c_d_id INT, h_c_w_id INT, h_d_id INT, h_w_id INT,
  h_date DATETIME, h_amount DECIMAL(6, 2), h_data VARCHAR(24)
) ENGINE=NDBCLUSTER;

-- hotrow: rows=576000, values=64
CREATE TABLE new_order (
  no_o_id INT NOT NULL, no_d_id INT NOT NULL, no_w_id INT NOT NULL,
  PRIMARY KEY (no_w_id, no_d_id, no_o_id)
) ENGINE=NDBCLUSTER PARTITION BY KEY (no_w_id);

-- hotrow: rows=1920000, values=64
CREATE TABLE orders (
  o_id INT NOT NULL, o_d_id INT NOT NULL, o_w_id INT NOT NULL,
  o_c_id INT, o_entry_d DATETIME, o_carrier_id INT, o_ol_cnt INT, o_all_local INT,
  PRIMARY KEY (o_w_id, o_d_id, o_id)
) ENGINE=NDBCLUSTER PARTITION BY KEY (o_w_id);

-- hotrow: rows=19200000, values=64
CREATE TABLE order_line (
  ol_o_id INT NOT NULL, ol_d_id INT NOT NULL, ol_w_id INT NOT NULL, ol_number INT NOT NULL,
  ol_i_id INT, ol_supply_w_id INT, ol_delivery_d DATETIME, ol_quantity INT,
  ol_amount DECIMAL(6, 2), ol_dist_info CHAR(24),
  PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
) ENGINE=NDBCLUSTER PARTITION BY KEY (ol_w_id);

-- hotrow: rows=100000
CREATE TABLE item (
  i_id INT NOT NULL PRIMARY KEY,
  i_im_id INT, i_name VARCHAR(24), i_price DECIMAL(5, 2), i_data VARCHAR(50)
) ENGINE=NDBCLUSTER;

-- hotrow: rows=6400000, values=64
CREATE TABLE stock (
  s_i_id INT NOT NULL, s_w_id INT NOT NULL,
  s_quantity INT, s_ytd INT, s_order_cnt INT, s_remote_cnt INT, s_data VARCHAR(50),
  PRIMARY KEY (s_w_id, s_i_id)
) ENGINE=NDBCLUSTER PARTITION BY KEY (s_w_id);
