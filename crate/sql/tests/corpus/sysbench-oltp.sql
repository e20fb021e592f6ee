-- sysbench's oltp_read_write event (oltp_common.lua, one of each query kind), with
-- oltp_point_select, oltp_update_index and oltp_delete's statements among them.
-- hotrow: name=read_write
BEGIN;
SELECT c FROM sbtest1 WHERE id=?;
SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?;
SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?;
SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c;
SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c;
UPDATE sbtest1 SET k=k+1 WHERE id=?;
UPDATE sbtest1 SET c=? WHERE id=?;
DELETE FROM sbtest1 WHERE id=?;
INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?);
COMMIT;
