-- pgbench's built-in select-only script (-b select-only, -S), verbatim.
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
