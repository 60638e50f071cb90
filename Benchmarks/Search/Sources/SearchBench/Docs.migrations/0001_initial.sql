-- 0001_initial: Docs.schema.yml
--   create table Doc
--   create full-text index Doc_fts

CREATE TABLE "Doc" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "title" TEXT NOT NULL,
  "body" TEXT NOT NULL
) STRICT;

CREATE VIRTUAL TABLE "Doc_fts" USING fts5("title", "body", content='Doc', tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER "Doc_fts_insert" AFTER INSERT ON "Doc" BEGIN
  INSERT INTO "Doc_fts" (rowid, "title", "body") VALUES (new.rowid, new."title", new."body");
END;

CREATE TRIGGER "Doc_fts_delete" AFTER DELETE ON "Doc" BEGIN
  INSERT INTO "Doc_fts" ("Doc_fts", rowid, "title", "body") VALUES ('delete', old.rowid, old."title", old."body");
END;

CREATE TRIGGER "Doc_fts_update" AFTER UPDATE ON "Doc" BEGIN
  INSERT INTO "Doc_fts" ("Doc_fts", rowid, "title", "body") VALUES ('delete', old.rowid, old."title", old."body");
  INSERT INTO "Doc_fts" (rowid, "title", "body") VALUES (new.rowid, new."title", new."body");
END;
