-- 0004_observation: Shop.schema.yml
--   create the observation triggers (strata_notify) of every table
-- strata-postgres-schema: b5194fcd1880a60d

CREATE OR REPLACE FUNCTION strata_notify() RETURNS trigger LANGUAGE plpgsql AS $strata$
BEGIN
  PERFORM pg_notify('strata_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$strata$;

DROP TRIGGER IF EXISTS strata_notify ON "authors";

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "authors" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();

DROP TRIGGER IF EXISTS strata_notify ON "books";

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "books" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();

DROP TRIGGER IF EXISTS strata_notify ON "book_tags";

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "book_tags" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();

DROP TRIGGER IF EXISTS strata_notify ON "members";

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "members" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();

DROP TRIGGER IF EXISTS strata_notify ON "loans";

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "loans" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();
