-- sysbench oltp_insert: each event one autocommit INSERT; with --auto_inc=on the id is 0,
-- so AUTO_INCREMENT gives it (from the table's SYSTAB_0 counter row in NDB).

-- hotrow: name=insert
INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, ?, ?, ?);
