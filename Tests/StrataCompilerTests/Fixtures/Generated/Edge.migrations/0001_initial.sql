-- 0001_initial: Edge.schema.yml
--   create table node table
--   create table Setting
--   create table Tick
--   create table Entry

CREATE TABLE "node table" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "default value" TEXT NOT NULL,
  "protocol" TEXT,
  "order" INTEGER NOT NULL DEFAULT 1,
  "parentId" INTEGER,
  "kind" TEXT NOT NULL DEFAULT 'plain' CHECK ("kind" IN ('e-book', '2nd', 'plain')),
  "extra" TEXT,
  FOREIGN KEY ("parentId") REFERENCES "node table" ("id") ON DELETE SET NULL
);

CREATE TABLE "Setting" (
  "key" TEXT PRIMARY KEY NOT NULL,
  "value" TEXT NOT NULL,
  "flag" INTEGER NOT NULL DEFAULT 0 CHECK ("flag" IN (0, 1))
);

CREATE TABLE "Tick" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT
);

CREATE TABLE "Entry" (
  "statement" INTEGER NOT NULL,
  "record" TEXT NOT NULL,
  "type" TEXT DEFAULT 'none' CHECK ("type" IN ('none', 'some')),
  "date" TEXT NOT NULL DEFAULT 'today' CHECK ("date" IN ('today', 'later')),
  "at" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  "selectId" INTEGER,
  "prefs" TEXT NOT NULL DEFAULT '{"theme":"light"}',
  PRIMARY KEY ("statement", "record"),
  FOREIGN KEY ("selectId") REFERENCES "Tick" ("id") ON DELETE SET NULL
);
