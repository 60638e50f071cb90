-- 0001_initial: Library.schema.yml
--   create the tables and indexes of the schema

CREATE TABLE "authors" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "born" TEXT
) STRICT;

CREATE TABLE "books" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "title" TEXT NOT NULL CHECK (length(title) > 0),
  "isbn" TEXT NOT NULL UNIQUE,
  "pages" INTEGER NOT NULL DEFAULT 0 CHECK (pages >= 0),
  "price" REAL,
  "format" TEXT NOT NULL DEFAULT 'paperback' CHECK ("format" IN ('hardcover', 'paperback', 'ebook')),
  "tags" TEXT NOT NULL DEFAULT '[]',
  "cover" BLOB,
  "publishedAt" TEXT,
  "authorId" INTEGER NOT NULL,
  FOREIGN KEY ("authorId") REFERENCES "authors" ("id") ON DELETE CASCADE
) STRICT;

CREATE TABLE "book_tags" (
  "bookId" TEXT NOT NULL,
  "tag" TEXT NOT NULL,
  PRIMARY KEY ("bookId", "tag"),
  FOREIGN KEY ("bookId") REFERENCES "books" ("id") ON DELETE CASCADE
) STRICT;

CREATE TABLE "members" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "full_name" TEXT NOT NULL,
  "email" TEXT NOT NULL UNIQUE,
  "active" INTEGER NOT NULL DEFAULT 1 CHECK ("active" IN (0, 1)),
  "joinedAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  "settings" TEXT NOT NULL DEFAULT '{"theme":"light"}'
) STRICT;

CREATE TABLE "loans" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "bookId" TEXT NOT NULL,
  "memberId" INTEGER,
  "lentAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  "dueAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now', '+21 days')),
  "returned" INTEGER NOT NULL DEFAULT 0 CHECK ("returned" IN (0, 1)),
  "note" TEXT,
  FOREIGN KEY ("bookId") REFERENCES "books" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("memberId") REFERENCES "members" ("id") ON DELETE SET NULL ON UPDATE CASCADE
) STRICT;

CREATE INDEX "books_title" ON "books" ("title");
CREATE INDEX "book_by_author_date" ON "books" ("authorId", "publishedAt");
CREATE INDEX "books_price" ON "books" ("price") WHERE price IS NOT NULL;
CREATE INDEX "loans_memberId_returned" ON "loans" ("memberId", "returned");
CREATE UNIQUE INDEX "loans_open_by_book" ON "loans" ("bookId") WHERE returned = 0;
