-- 0002_search_notes: Notes.schema.yml
--   create full-text index notes_fts

CREATE VIRTUAL TABLE "notes_fts" USING fts5("title", "body", content='notes', tokenize='porter unicode61');

CREATE TRIGGER "notes_fts_insert" AFTER INSERT ON "notes" BEGIN
  INSERT INTO "notes_fts" (rowid, "title", "body") VALUES (new.rowid, new."title", new."body");
END;

CREATE TRIGGER "notes_fts_delete" AFTER DELETE ON "notes" BEGIN
  INSERT INTO "notes_fts" ("notes_fts", rowid, "title", "body") VALUES ('delete', old.rowid, old."title", old."body");
END;

CREATE TRIGGER "notes_fts_update" AFTER UPDATE ON "notes" BEGIN
  INSERT INTO "notes_fts" ("notes_fts", rowid, "title", "body") VALUES ('delete', old.rowid, old."title", old."body");
  INSERT INTO "notes_fts" (rowid, "title", "body") VALUES (new.rowid, new."title", new."body");
END;

INSERT INTO "notes_fts" ("notes_fts") VALUES ('rebuild');
