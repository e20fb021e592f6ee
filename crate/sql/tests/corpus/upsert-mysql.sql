-- MySQL's upserts: ON DUPLICATE KEY UPDATE, REPLACE, INSERT IGNORE.
-- hotrow: name=duplicate_key
INSERT INTO counters (name, n) VALUES ('orders', 1) ON DUPLICATE KEY UPDATE n = n + 1;
-- hotrow: name=replace
REPLACE INTO counters (name, n) VALUES ('visits', 0);
-- hotrow: name=ignore
INSERT IGNORE INTO orders (id, customer_id) VALUES (?, ?);
