-- 0001_initial: Vault.schema.yml
--   create table secret"; DROP TABLE secret; --
--   create table keeper; --
--   create table ticket"); --
--   create index secret"; DROP TABLE secret; --_label'); DELETE FROM sqlite_master; -- (on secret"; DROP TABLE secret; -- (label'); DELETE FROM sqlite_master; --))

CREATE TABLE "secret""; DROP TABLE secret; --" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "label'); DELETE FROM sqlite_master; --" TEXT NOT NULL,
  "body"" TEXT, evil TEXT); --" TEXT NOT NULL,
  "select" TEXT,
  "kind" TEXT NOT NULL DEFAULT 'plain' CHECK ("kind" IN ('a''; DROP TABLE x; --', 'b" OR 1=1 --', 'plain')),
  "payload" BLOB
) STRICT;

CREATE TABLE "keeper; --" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "secretId" INTEGER NOT NULL,
  "motto" TEXT NOT NULL DEFAULT 'it''s; DROP TABLE "keeper; --"; --',
  FOREIGN KEY ("secretId") REFERENCES "secret""; DROP TABLE secret; --" ("id") ON DELETE CASCADE
) STRICT;

CREATE TABLE "ticket""); --" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT
) STRICT;

CREATE INDEX "secret""; DROP TABLE secret; --_label'); DELETE FROM sqlite_master; --" ON "secret""; DROP TABLE secret; --" ("label'); DELETE FROM sqlite_master; --");
