-- 0001_initial: Store.schema.yml
--   create table customers
--   create table lines
--   create table reviews
--   create index reviews_expiresAt (on reviews (expiresAt))
--   create full-text index reviews_fts

CREATE TABLE "customers" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "tier" TEXT NOT NULL DEFAULT 'basic' CHECK ("tier" IN ('basic', 'gold')),
  "prefs" TEXT,
  "photo" BLOB,
  "joined" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
) STRICT;

CREATE TABLE "lines" (
  "orderId" TEXT NOT NULL,
  "position" INTEGER NOT NULL,
  "customerId" INTEGER,
  "quantity" REAL NOT NULL DEFAULT 1.0,
  "gift" INTEGER NOT NULL DEFAULT 0 CHECK ("gift" IN (0, 1)),
  PRIMARY KEY ("orderId", "position"),
  FOREIGN KEY ("customerId") REFERENCES "customers" ("id") ON DELETE SET NULL
) STRICT;

CREATE TABLE "reviews" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "customerId" INTEGER NOT NULL,
  "text" TEXT NOT NULL,
  "expiresAt" TEXT,
  FOREIGN KEY ("customerId") REFERENCES "customers" ("id") ON DELETE CASCADE
) STRICT;

CREATE INDEX "reviews_expiresAt" ON "reviews" ("expiresAt");

CREATE VIRTUAL TABLE "reviews_fts" USING fts5("text", content='reviews', tokenize='porter');

CREATE TRIGGER "reviews_fts_insert" AFTER INSERT ON "reviews" BEGIN
  INSERT INTO "reviews_fts" (rowid, "text") VALUES (new.rowid, new."text");
END;

CREATE TRIGGER "reviews_fts_delete" AFTER DELETE ON "reviews" BEGIN
  INSERT INTO "reviews_fts" ("reviews_fts", rowid, "text") VALUES ('delete', old.rowid, old."text");
END;

CREATE TRIGGER "reviews_fts_update" AFTER UPDATE ON "reviews" BEGIN
  INSERT INTO "reviews_fts" ("reviews_fts", rowid, "text") VALUES ('delete', old.rowid, old."text");
  INSERT INTO "reviews_fts" (rowid, "text") VALUES (new.rowid, new."text");
END;
