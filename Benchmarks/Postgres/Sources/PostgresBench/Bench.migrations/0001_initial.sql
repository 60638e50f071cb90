-- 0001_initial: Bench.schema.yml
--   create table accounts

CREATE TABLE "accounts" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "email" TEXT,
  "balance" REAL NOT NULL,
  "active" INTEGER NOT NULL CHECK ("active" IN (0, 1)),
  "created" TEXT NOT NULL
) STRICT;
