-- 0001_initial: Edge.schema.yml
--   create table node table
--   create table Setting

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
