-- 0001_initial: DjangoBlog.schema.yml
--   create table blog_author
--   create table blog_entry
--   create index blog_entry_author_id_4b5d3a1e (on blog_entry (author_id))

CREATE TABLE "blog_author" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" VARCHAR(100) NOT NULL,
  "is_active" BOOL NOT NULL,
  "joined" DATE NOT NULL
);

CREATE TABLE "blog_entry" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "headline" VARCHAR(255) NOT NULL,
  "rating" DECIMAL(10, 2) NOT NULL,
  "views" INTEGER UNSIGNED NOT NULL CHECK ("views" >= 0),
  "uuid" CHAR(32) NOT NULL UNIQUE,
  "ident" UUID,
  "author_id" BIGINT NOT NULL,
  "pub_date" DATETIME NOT NULL,
  "flag" BOOL,
  FOREIGN KEY ("author_id") REFERENCES "blog_author" ("id")
);

CREATE INDEX "blog_entry_author_id_4b5d3a1e" ON "blog_entry" ("author_id");
