-- 0001_initial: Bench.schema.yml
--   create the tables and indexes of the schema

CREATE TABLE "items" (
  "i0" INTEGER PRIMARY KEY NOT NULL,
  "i1" INTEGER NOT NULL,
  "i2" INTEGER NOT NULL,
  "i3" INTEGER NOT NULL,
  "i4" INTEGER NOT NULL,
  "i5" INTEGER NOT NULL,
  "i6" INTEGER NOT NULL,
  "i7" INTEGER NOT NULL,
  "i8" INTEGER NOT NULL,
  "i9" INTEGER NOT NULL
) STRICT;

CREATE TABLE "events" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL,
  "note" TEXT,
  "score" REAL NOT NULL,
  "active" INTEGER NOT NULL CHECK ("active" IN (0, 1)),
  "createdAt" TEXT NOT NULL,
  "token" TEXT NOT NULL,
  "kind" TEXT NOT NULL CHECK ("kind" IN ('info', 'warning', 'failure'))
) STRICT;

CREATE INDEX "events_name" ON "events" ("name");
