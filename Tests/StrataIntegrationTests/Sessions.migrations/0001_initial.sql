-- 0001_initial: Sessions.schema.yml
--   create table User
--   create table Session
--   create table Grant
--   create table Notice
--   create index Session_expiresAt (on Session (expiresAt))
--   create index Notice_expiresAt (on Notice (expiresAt))
--   create full-text index Notice_fts

CREATE TABLE "User" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL
) STRICT;

CREATE TABLE "Session" (
  "token" TEXT PRIMARY KEY NOT NULL,
  "userId" INTEGER NOT NULL,
  "device" TEXT NOT NULL,
  "expiresAt" TEXT,
  FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE
) STRICT;

CREATE TABLE "Grant" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "sessionToken" TEXT NOT NULL,
  "scope" TEXT NOT NULL,
  FOREIGN KEY ("sessionToken") REFERENCES "Session" ("token") ON DELETE CASCADE
) STRICT;

CREATE TABLE "Notice" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "body" TEXT NOT NULL,
  "expiresAt" TEXT
) STRICT;

CREATE INDEX "Session_expiresAt" ON "Session" ("expiresAt");

CREATE INDEX "Notice_expiresAt" ON "Notice" ("expiresAt");

CREATE VIRTUAL TABLE "Notice_fts" USING fts5("body", content='Notice');

CREATE TRIGGER "Notice_fts_insert" AFTER INSERT ON "Notice" BEGIN
  INSERT INTO "Notice_fts" (rowid, "body") VALUES (new.rowid, new."body");
END;

CREATE TRIGGER "Notice_fts_delete" AFTER DELETE ON "Notice" BEGIN
  INSERT INTO "Notice_fts" ("Notice_fts", rowid, "body") VALUES ('delete', old.rowid, old."body");
END;

CREATE TRIGGER "Notice_fts_update" AFTER UPDATE ON "Notice" BEGIN
  INSERT INTO "Notice_fts" ("Notice_fts", rowid, "body") VALUES ('delete', old.rowid, old."body");
  INSERT INTO "Notice_fts" (rowid, "body") VALUES (new.rowid, new."body");
END;
