-- 0001_initial: Shop.schema.yml
--   create table authors
--   create table books
--   create table patrons
--   create index books_title (on books (title))

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

CREATE TABLE "patrons" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "email" TEXT NOT NULL
) STRICT;

CREATE INDEX "books_title" ON "books" ("title");
