-- 0001_initial: Parity.schema.yml
--   create table teams
--   create table members

CREATE TABLE "teams" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "city" TEXT NOT NULL,
  "code" TEXT NOT NULL UNIQUE,
  "active" INTEGER NOT NULL CHECK ("active" IN (0, 1)),
  "founded" TEXT NOT NULL
) STRICT;

CREATE TABLE "members" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "team_id" INTEGER NOT NULL,
  "mentor_id" INTEGER,
  "name" TEXT NOT NULL,
  "email" TEXT,
  "role" TEXT NOT NULL CHECK ("role" IN ('lead', 'dev', 'ops')),
  "salary" INTEGER NOT NULL,
  "rating" REAL,
  "active" INTEGER NOT NULL CHECK ("active" IN (0, 1)),
  "joined" TEXT NOT NULL,
  FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("mentor_id") REFERENCES "members" ("id") ON DELETE SET NULL
) STRICT;
