-- 0001_initial: Dates.schema.yml
--   create table Event

CREATE TABLE "Event" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "text" TEXT NOT NULL,
  "seconds" INTEGER NOT NULL,
  "millis" INTEGER NOT NULL,
  "julian" REAL NOT NULL,
  "reference" REAL NOT NULL,
  "optionalReference" REAL,
  "createdAt" INTEGER NOT NULL DEFAULT (CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER))
) STRICT;
