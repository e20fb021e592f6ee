-- sysbench's sbtest1 as oltp_common.lua creates it (--auto_inc=on, the default) on MySQL
-- Cluster, 10,000 rows prepared (--table_size).

-- hotrow: rows=10000
CREATE TABLE sbtest1 (
  id INTEGER NOT NULL AUTO_INCREMENT,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) ENGINE=NDBCLUSTER;
CREATE INDEX k_1 ON sbtest1 (k);
