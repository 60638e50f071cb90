-- 0001_initial: Store.schema.yml
--   create table customers
--   create table lines

CREATE TABLE "customers" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "tier" TEXT NOT NULL DEFAULT 'basic' CHECK ("tier" IN ('basic', 'gold')),
  "prefs" TEXT,
  "photo" BLOB,
  "joined" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
) STRICT;

CREATE TABLE "lines" (
  "orderId" TEXT NOT NULL,
  "position" INTEGER NOT NULL,
  "customerId" INTEGER,
  "quantity" REAL NOT NULL DEFAULT 1.0,
  "gift" INTEGER NOT NULL DEFAULT 0 CHECK ("gift" IN (0, 1)),
  PRIMARY KEY ("orderId", "position"),
  FOREIGN KEY ("customerId") REFERENCES "customers" ("id") ON DELETE SET NULL
) STRICT;
