-- 0001_initial: Observed.schema.yml
--   create table item
--   create table other
--   create table Order "Items"

CREATE TABLE "item" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT
) STRICT;

CREATE TABLE "other" (
  "id" INTEGER PRIMARY KEY NOT NULL
) STRICT;

CREATE TABLE "Order ""Items""" (
  "id" INTEGER PRIMARY KEY NOT NULL
) STRICT;
