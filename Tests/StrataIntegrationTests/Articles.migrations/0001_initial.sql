-- 0001_initial: Articles.schema.yml
--   create table Article
--   create full-text index Article_fts

CREATE TABLE "Article" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "title" TEXT NOT NULL,
  "summary" TEXT,
  "stars" INTEGER NOT NULL
) STRICT;

CREATE VIRTUAL TABLE "Article_fts" USING fts5("title", "summary", content='Article', tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER "Article_fts_insert" AFTER INSERT ON "Article" BEGIN
  INSERT INTO "Article_fts" (rowid, "title", "summary") VALUES (new.rowid, new."title", new."summary");
END;

CREATE TRIGGER "Article_fts_delete" AFTER DELETE ON "Article" BEGIN
  INSERT INTO "Article_fts" ("Article_fts", rowid, "title", "summary") VALUES ('delete', old.rowid, old."title", old."summary");
END;

CREATE TRIGGER "Article_fts_update" AFTER UPDATE ON "Article" BEGIN
  INSERT INTO "Article_fts" ("Article_fts", rowid, "title", "summary") VALUES ('delete', old.rowid, old."title", old."summary");
  INSERT INTO "Article_fts" (rowid, "title", "summary") VALUES (new.rowid, new."title", new."summary");
END;
