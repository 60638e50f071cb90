-- 0001_initial: Music.schema.yml
--   create table artist
--   create table album
--   create table track
--   create table invoiceLine
--   create table employee

CREATE TABLE "artist" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "country" TEXT
) STRICT;

CREATE TABLE "album" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "title" TEXT NOT NULL,
  "artistId" INTEGER NOT NULL,
  "releasedAt" TEXT,
  "label" TEXT NOT NULL DEFAULT 'indie' CHECK ("label" IN ('indie', 'major')),
  FOREIGN KEY ("artistId") REFERENCES "artist" ("id")
) STRICT;

CREATE TABLE "track" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "albumId" INTEGER,
  "milliseconds" INTEGER NOT NULL,
  "unitPrice" REAL NOT NULL,
  "genre" TEXT NOT NULL CHECK ("genre" IN ('rock', 'jazz', 'pop')),
  "code" TEXT NOT NULL,
  "tags" TEXT NOT NULL,
  FOREIGN KEY ("albumId") REFERENCES "album" ("id")
) STRICT;

CREATE TABLE "invoiceLine" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "trackId" INTEGER NOT NULL,
  "unitPrice" REAL NOT NULL,
  "quantity" INTEGER NOT NULL,
  FOREIGN KEY ("trackId") REFERENCES "track" ("id") ON DELETE CASCADE
) STRICT;

CREATE TABLE "employee" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "managerId" INTEGER,
  FOREIGN KEY ("managerId") REFERENCES "employee" ("id")
) STRICT;
