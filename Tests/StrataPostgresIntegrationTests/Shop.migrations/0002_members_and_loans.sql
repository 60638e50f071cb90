-- 0002_members_and_loans: Shop.schema.yml
--   rename table patrons to members
--   rename column members.name to full_name
--   rebuild table members: add column active; add column joinedAt (a non-constant default needs a rebuild)
--   create table loans
--   create index loans_open_by_book (unique on loans (bookId) where returned = false)

ALTER TABLE "patrons" RENAME TO "members";

ALTER TABLE "members" RENAME COLUMN "name" TO "full_name";

CREATE TABLE "new_members" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "full_name" TEXT NOT NULL,
  "email" TEXT NOT NULL,
  "active" INTEGER NOT NULL DEFAULT 1 CHECK ("active" IN (0, 1)),
  "joinedAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
) STRICT;

INSERT INTO "new_members" ("id", "full_name", "email")
  SELECT "id", "full_name", "email" FROM "members";

DELETE FROM sqlite_sequence WHERE name = 'new_members';

UPDATE sqlite_sequence SET name = 'new_members' WHERE name = 'members';

DROP TABLE "members";

ALTER TABLE "new_members" RENAME TO "members";

CREATE TABLE "loans" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "bookId" TEXT NOT NULL,
  "memberId" INTEGER,
  "lentAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
  "returned" INTEGER NOT NULL DEFAULT 0 CHECK ("returned" IN (0, 1)),
  "note" TEXT,
  FOREIGN KEY ("bookId") REFERENCES "books" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("memberId") REFERENCES "members" ("id") ON DELETE SET NULL ON UPDATE CASCADE
) STRICT;

CREATE UNIQUE INDEX "loans_open_by_book" ON "loans" ("bookId") WHERE returned = FALSE;
