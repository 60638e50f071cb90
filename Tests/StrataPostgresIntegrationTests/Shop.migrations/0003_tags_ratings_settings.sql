-- 0003_tags_ratings_settings: Shop.schema.yml
--   add column authors.rating (REAL NOT NULL DEFAULT 0.0)
--   create table book_tags
--   rebuild table members: add column settings; add UNIQUE (email)
--   rebuild table loans: note becomes NOT NULL, changes default from none to ''
--   create index book_by_author_date (on books (authorId, publishedAt))
--   create index books_price (on books (price) where price is not null)

ALTER TABLE "authors" ADD COLUMN "rating" REAL NOT NULL DEFAULT 0.0;

CREATE TABLE "book_tags" (
  "bookId" TEXT NOT NULL,
  "tag" TEXT NOT NULL,
  PRIMARY KEY ("bookId", "tag"),
  FOREIGN KEY ("bookId") REFERENCES "books" ("id") ON DELETE CASCADE
) STRICT;

CREATE TABLE "new_members" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "full_name" TEXT NOT NULL,
  "email" TEXT NOT NULL UNIQUE,
  "settings" TEXT NOT NULL DEFAULT '{"theme":"light"}',
  "active" INTEGER NOT NULL DEFAULT 1 CHECK ("active" IN (0, 1)),
  "joinedAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
) STRICT;

INSERT INTO "new_members" ("id", "full_name", "email", "active", "joinedAt")
  SELECT "id", "full_name", "email", "active", "joinedAt" FROM "members";

DELETE FROM sqlite_sequence WHERE name = 'new_members';

UPDATE sqlite_sequence SET name = 'new_members' WHERE name = 'members';

DROP TABLE "members";

ALTER TABLE "new_members" RENAME TO "members";

CREATE TABLE "new_loans" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "bookId" TEXT NOT NULL,
  "memberId" INTEGER,
  "lentAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  "returned" INTEGER NOT NULL DEFAULT 0 CHECK ("returned" IN (0, 1)),
  "note" TEXT NOT NULL DEFAULT '',
  FOREIGN KEY ("bookId") REFERENCES "books" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("memberId") REFERENCES "members" ("id") ON DELETE SET NULL ON UPDATE CASCADE
) STRICT;

INSERT INTO "new_loans" ("id", "bookId", "memberId", "lentAt", "returned", "note")
  SELECT "id", "bookId", "memberId", "lentAt", "returned", coalesce("note", '') FROM "loans";

DELETE FROM sqlite_sequence WHERE name = 'new_loans';

UPDATE sqlite_sequence SET name = 'new_loans' WHERE name = 'loans';

DROP TABLE "loans";

ALTER TABLE "new_loans" RENAME TO "loans";

CREATE INDEX "book_by_author_date" ON "books" ("authorId", "publishedAt");

CREATE INDEX "books_price" ON "books" ("price") WHERE price IS NOT NULL;

CREATE INDEX "loans_memberId_returned" ON "loans" ("memberId", "returned");

CREATE UNIQUE INDEX "loans_open_by_book" ON "loans" ("bookId") WHERE returned = FALSE;
