-- 0001_initial: Cards.schema.yml
--   create table decks
--   create table notes
--   create table cards
--   create table revlog

CREATE TABLE "decks" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL,
  "mtime_secs" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL
) STRICT;

CREATE TABLE "notes" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "guid" TEXT NOT NULL,
  "mid" INTEGER NOT NULL,
  "mod" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "tags" TEXT NOT NULL,
  "flds" TEXT NOT NULL,
  "sfld" TEXT NOT NULL,
  "csum" INTEGER NOT NULL
) STRICT;

CREATE TABLE "cards" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "nid" INTEGER NOT NULL,
  "did" INTEGER NOT NULL,
  "ord" INTEGER NOT NULL,
  "mod" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "type" INTEGER NOT NULL,
  "queue" INTEGER NOT NULL,
  "due" INTEGER NOT NULL,
  "ivl" INTEGER NOT NULL,
  "factor" INTEGER NOT NULL,
  "reps" INTEGER NOT NULL,
  "lapses" INTEGER NOT NULL,
  "odue" INTEGER NOT NULL,
  "odid" INTEGER NOT NULL,
  FOREIGN KEY ("nid") REFERENCES "notes" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("did") REFERENCES "decks" ("id")
) STRICT;

CREATE TABLE "revlog" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "cid" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "ease" INTEGER NOT NULL,
  "ivl" INTEGER NOT NULL,
  "lastIvl" INTEGER NOT NULL,
  "factor" INTEGER NOT NULL,
  "time" INTEGER NOT NULL,
  "type" INTEGER NOT NULL
) STRICT;
