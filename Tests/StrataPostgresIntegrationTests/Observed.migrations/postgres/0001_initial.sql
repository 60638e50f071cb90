-- 0001_initial: Observed.schema.yml
--   create table item
--   create table other
--   create table Order "Items"
--   create the observation triggers (strata_notify)
-- strata-postgres-schema: ef0c3d2e9a96550a

CREATE TABLE "item" (
  "id" BIGINT PRIMARY KEY,
  "name" TEXT
);

CREATE TABLE "other" (
  "id" BIGINT PRIMARY KEY
);

CREATE TABLE "Order ""Items""" (
  "id" BIGINT PRIMARY KEY
);

CREATE OR REPLACE FUNCTION strata_notify() RETURNS trigger LANGUAGE plpgsql AS $strata$
BEGIN
  PERFORM pg_notify('strata_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$strata$;

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "item" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "other" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();

CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Order ""Items""" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify();
