-- 0002_search_notes: Notes.schema.yml
--   create full-text index notes_fts
-- strata-postgres-schema: f1908a3b0697ab8f

ALTER TABLE "notes" ADD COLUMN "strata_search" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce("title", '') || ' ' || coalesce("body", ''))) STORED;

CREATE INDEX "notes_fts" ON "notes" USING GIN ("strata_search");
