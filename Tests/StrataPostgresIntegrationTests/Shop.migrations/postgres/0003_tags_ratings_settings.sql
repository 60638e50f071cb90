-- 0003_tags_ratings_settings: Shop.schema.yml
--   add column authors.rating
--   create table book_tags
--   add column members.settings
--   add UNIQUE (email) to members
--   change the default of loans.note
--   loans.note becomes NOT NULL
--   create index book_by_author_date
--   create index books_price
--   create index loans_memberId_returned
-- strata-postgres-schema: b5194fcd1880a60d

ALTER TABLE "authors" ADD COLUMN "rating" DOUBLE PRECISION NOT NULL DEFAULT 0.0;

CREATE TABLE "book_tags" (
  "bookId" UUID NOT NULL,
  "tag" TEXT NOT NULL,
  PRIMARY KEY ("bookId", "tag"),
  FOREIGN KEY ("bookId") REFERENCES "books" ("id") ON DELETE CASCADE
);

ALTER TABLE "members" ADD COLUMN "settings" JSONB NOT NULL DEFAULT '{"theme":"light"}'::jsonb;

ALTER TABLE "members" ADD UNIQUE ("email");

ALTER TABLE "loans" ALTER COLUMN "note" SET DEFAULT '';

UPDATE "loans" SET "note" = '' WHERE "note" IS NULL;

ALTER TABLE "loans" ALTER COLUMN "note" SET NOT NULL;

CREATE INDEX "book_by_author_date" ON "books" ("authorId", "publishedAt");

CREATE INDEX "books_price" ON "books" ("price") WHERE "price" IS NOT NULL;

CREATE INDEX "loans_memberId_returned" ON "loans" ("memberId", "returned");
