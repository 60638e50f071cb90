-- 0001_initial: Sales.schema.yml
--   create table customers
--   create table sales
--   create index sales_customerId (on sales (customerId))

CREATE TABLE "customers" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL,
  "region" TEXT NOT NULL CHECK ("region" IN ('north', 'south', 'east', 'west'))
) STRICT;

CREATE TABLE "sales" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "customerId" INTEGER NOT NULL,
  "amount" REAL NOT NULL,
  "quantity" INTEGER NOT NULL,
  FOREIGN KEY ("customerId") REFERENCES "customers" ("id")
) STRICT;

CREATE INDEX "sales_customerId" ON "sales" ("customerId");
