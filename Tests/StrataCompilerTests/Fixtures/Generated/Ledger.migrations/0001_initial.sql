-- 0001_initial: Ledger.schema.yml
--   create table accounts
--   create table entries

CREATE TABLE "accounts" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "kind" TEXT NOT NULL DEFAULT 'asset' CHECK ("kind" IN ('asset', 'liability'))
) STRICT;

CREATE TABLE "entries" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "accountId" INTEGER NOT NULL,
  "cents" INTEGER NOT NULL,
  "memo" TEXT,
  "token" TEXT NOT NULL,
  "bookedAt" TEXT NOT NULL,
  FOREIGN KEY ("accountId") REFERENCES "accounts" ("id") ON DELETE CASCADE
) STRICT;
