-- SQL:2003 MERGE (PostgreSQL 15+): matched, the counter is updated; not, inserted.
BEGIN;
MERGE INTO counters c
USING (SELECT 'orders' AS name) s
ON c.name = s.name
WHEN MATCHED THEN UPDATE SET n = c.n + 1
WHEN NOT MATCHED THEN INSERT (name, n) VALUES (s.name, 1);
COMMIT;
