-- 0001_initial: Compose.schema.yml
--   create table Folder
--   create table Note
--   create table Tag
--   create table Page
--   create table Pin
--   create table Ref
--   create table Memo
--   create table Marker
--   create index Note_expiresAt (on Note (expiresAt))
--   create index Tag_expiresAt (on Tag (expiresAt))
--   create index Page_expiresAt (on Page (expiresAt))
--   create view liveNotes
--   create trigger countNotes
--   create full-text index Note_fts
--   create full-text index Page_fts
--   create full-text index Memo_fts

CREATE TABLE "Folder" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL,
  "noteCount" INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE "Note" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "folderId" INTEGER,
  "title" TEXT NOT NULL,
  "body" TEXT,
  "stars" INTEGER NOT NULL,
  "expiresAt" TEXT,
  FOREIGN KEY ("folderId") REFERENCES "Folder" ("id") ON DELETE SET NULL
) STRICT;

CREATE TABLE "Tag" (
  "noteId" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "weight" REAL,
  "expiresAt" TEXT,
  PRIMARY KEY ("noteId", "name"),
  FOREIGN KEY ("noteId") REFERENCES "Note" ("id") ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE "Page" (
  "slug" TEXT PRIMARY KEY NOT NULL,
  "content" TEXT NOT NULL,
  "expiresAt" TEXT
);

CREATE TABLE "Pin" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "folderId" INTEGER NOT NULL,
  FOREIGN KEY ("folderId") REFERENCES "Folder" ("id") ON DELETE RESTRICT
) STRICT;

CREATE TABLE "Ref" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "folderId" INTEGER NOT NULL DEFAULT 0,
  "pinId" INTEGER,
  FOREIGN KEY ("folderId") REFERENCES "Folder" ("id") ON DELETE SET DEFAULT,
  FOREIGN KEY ("pinId") REFERENCES "Pin" ("id") ON DELETE NO ACTION
) STRICT;

CREATE TABLE "Memo" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "label" TEXT NOT NULL,
  "size" INTEGER NOT NULL
) STRICT;

CREATE TABLE "Marker" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL UNIQUE COLLATE NOCASE,
  "folderId" INTEGER,
  "seenAt" REAL NOT NULL,
  "dueAt" INTEGER,
  "rank" INTEGER NOT NULL,
  FOREIGN KEY ("folderId") REFERENCES "Folder" ("id") ON DELETE CASCADE
) STRICT;

CREATE INDEX "Note_expiresAt" ON "Note" ("expiresAt");

CREATE INDEX "Tag_expiresAt" ON "Tag" ("expiresAt");

CREATE INDEX "Page_expiresAt" ON "Page" ("expiresAt");

CREATE VIEW "liveNotes" AS SELECT id, title FROM Note WHERE expiresAt IS NULL;

CREATE TRIGGER countNotes AFTER INSERT ON Note WHEN new.folderId IS NOT NULL
BEGIN
  UPDATE Folder SET noteCount = noteCount + 1 WHERE id = new.folderId;
END;

CREATE VIRTUAL TABLE "Note_fts" USING fts5("title", "body", content='Note');

CREATE VIRTUAL TABLE "Page_fts" USING fts5("content", content='Page');

CREATE VIRTUAL TABLE "Memo_fts" USING fts5("label", content='Memo');

CREATE TRIGGER "Note_fts_insert" AFTER INSERT ON "Note" BEGIN
  INSERT INTO "Note_fts" (rowid, "title", "body") VALUES (new.rowid, new."title", new."body");
END;

CREATE TRIGGER "Note_fts_delete" AFTER DELETE ON "Note" BEGIN
  INSERT INTO "Note_fts" ("Note_fts", rowid, "title", "body") VALUES ('delete', old.rowid, old."title", old."body");
END;

CREATE TRIGGER "Note_fts_update" AFTER UPDATE ON "Note" BEGIN
  INSERT INTO "Note_fts" ("Note_fts", rowid, "title", "body") VALUES ('delete', old.rowid, old."title", old."body");
  INSERT INTO "Note_fts" (rowid, "title", "body") VALUES (new.rowid, new."title", new."body");
END;

CREATE TRIGGER "Page_fts_insert" AFTER INSERT ON "Page" BEGIN
  INSERT INTO "Page_fts" (rowid, "content") VALUES (new.rowid, new."content");
END;

CREATE TRIGGER "Page_fts_delete" AFTER DELETE ON "Page" BEGIN
  INSERT INTO "Page_fts" ("Page_fts", rowid, "content") VALUES ('delete', old.rowid, old."content");
END;

CREATE TRIGGER "Page_fts_update" AFTER UPDATE ON "Page" BEGIN
  INSERT INTO "Page_fts" ("Page_fts", rowid, "content") VALUES ('delete', old.rowid, old."content");
  INSERT INTO "Page_fts" (rowid, "content") VALUES (new.rowid, new."content");
END;

CREATE TRIGGER "Memo_fts_insert" AFTER INSERT ON "Memo" BEGIN
  INSERT INTO "Memo_fts" (rowid, "label") VALUES (new.rowid, new."label");
END;

CREATE TRIGGER "Memo_fts_delete" AFTER DELETE ON "Memo" BEGIN
  INSERT INTO "Memo_fts" ("Memo_fts", rowid, "label") VALUES ('delete', old.rowid, old."label");
END;

CREATE TRIGGER "Memo_fts_update" AFTER UPDATE ON "Memo" BEGIN
  INSERT INTO "Memo_fts" ("Memo_fts", rowid, "label") VALUES ('delete', old.rowid, old."label");
  INSERT INTO "Memo_fts" (rowid, "label") VALUES (new.rowid, new."label");
END;
