-- 0001_initial: Notes.schema.yml
--   create table users
--   create table notes
--   create table sessions
--   create index sessions_expiresAt (on sessions (expiresAt))

CREATE TABLE "users" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL
) STRICT;

CREATE TABLE "notes" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "title" TEXT NOT NULL,
  "body" TEXT,
  "keep" INTEGER NOT NULL DEFAULT 0 CHECK ("keep" IN (0, 1))
) STRICT;

CREATE TABLE "sessions" (
  "token" TEXT PRIMARY KEY NOT NULL,
  "userId" INTEGER NOT NULL,
  "device" TEXT NOT NULL,
  "expiresAt" TEXT,
  FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE
) STRICT;

CREATE INDEX "sessions_expiresAt" ON "sessions" ("expiresAt");
