-- Rails' counter_cache (MySQL): each new comment bumps its post's comments_count.
-- hotrow: rows=100000
CREATE TABLE posts (
  id BIGINT NOT NULL AUTO_INCREMENT,
  title VARCHAR(255),
  comments_count INT NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
) ENGINE=NDBCLUSTER;

CREATE TABLE comments (
  id BIGINT NOT NULL AUTO_INCREMENT,
  post_id BIGINT NOT NULL,
  body TEXT,
  PRIMARY KEY (id)
) ENGINE=NDBCLUSTER;

-- hotrow: name=create_comment
BEGIN;
INSERT INTO comments (post_id, body) VALUES (?, ?);
-- hotrow: key=zipfian(0.99)
UPDATE posts SET comments_count = COALESCE(comments_count, 0) + 1 WHERE id = ?;
COMMIT;
