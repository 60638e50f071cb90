-- 0001_initial: MobileNotes.schema.yml
--   create table note_folders
--   create table notes
--   create table settings

CREATE TABLE "note_folders" (
  "folderId" TEXT PRIMARY KEY NOT NULL,
  "title" TEXT NOT NULL,
  "sortOrder" INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE "notes" (
  "folderId" TEXT NOT NULL,
  "noteId" INTEGER NOT NULL,
  "body" TEXT,
  "pinned" INTEGER NOT NULL DEFAULT 0,
  "updatedAt" INTEGER NOT NULL,
  "thumbnail" BLOB,
  PRIMARY KEY ("folderId", "noteId"),
  FOREIGN KEY ("folderId") REFERENCES "note_folders" ("folderId") ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE "settings" (
  "key" TEXT PRIMARY KEY NOT NULL,
  "value" ANY,
  "ratio" REAL NOT NULL DEFAULT 1.5
) STRICT;
