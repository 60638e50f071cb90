-- 0001_initial: AnkiCollection.schema.yml
--   create table col
--   create table notes
--   create table cards
--   create table revlog
--   create table deck_config
--   create table config
--   create table fields
--   create table notetypes
--   create table decks
--   create table tags
--   create table graves
--   create index ix_notes_csum (on notes (csum))
--   create index ix_notes_usn (on notes (usn))
--   create index idx_cards_odid (on cards (odid) where odid != 0)
--   create index ix_cards_nid (on cards (nid))
--   create index ix_cards_sched (on cards (did, queue, due))
--   create index ix_cards_usn (on cards (usn))
--   create index ix_revlog_cid (on revlog (cid))
--   create index ix_revlog_usn (on revlog (usn))
--   create index idx_fields_name_ntid (unique on fields (name, ntid))
--   create index idx_notetype_name (unique on notetypes (name))
--   create index idx_notetype_usn (on notetypes (usn))
--   create index idx_decks_name (unique on decks (name))
--   create index idx_graves_pending (on graves (usn))

CREATE TABLE "col" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "crt" INTEGER NOT NULL,
  "mod" INTEGER NOT NULL,
  "scm" INTEGER NOT NULL,
  "ver" INTEGER NOT NULL,
  "dty" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "ls" INTEGER NOT NULL,
  "conf" TEXT NOT NULL,
  "models" TEXT NOT NULL,
  "decks" TEXT NOT NULL,
  "dconf" TEXT NOT NULL,
  "tags" TEXT NOT NULL
);

CREATE TABLE "notes" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "guid" TEXT NOT NULL,
  "mid" INTEGER NOT NULL,
  "mod" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "tags" TEXT NOT NULL,
  "flds" TEXT NOT NULL,
  "sfld" INTEGER NOT NULL,
  "csum" INTEGER NOT NULL,
  "flags" INTEGER NOT NULL,
  "data" TEXT NOT NULL
);

CREATE TABLE "cards" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "nid" INTEGER NOT NULL,
  "did" INTEGER NOT NULL,
  "ord" INTEGER NOT NULL,
  "mod" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "type" INTEGER NOT NULL,
  "queue" INTEGER NOT NULL,
  "due" INTEGER NOT NULL,
  "ivl" INTEGER NOT NULL,
  "factor" INTEGER NOT NULL,
  "reps" INTEGER NOT NULL,
  "lapses" INTEGER NOT NULL,
  "left" INTEGER NOT NULL,
  "odue" INTEGER NOT NULL,
  "odid" INTEGER NOT NULL,
  "flags" INTEGER NOT NULL,
  "data" TEXT NOT NULL
);

CREATE TABLE "revlog" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "cid" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "ease" INTEGER NOT NULL,
  "ivl" INTEGER NOT NULL,
  "lastIvl" INTEGER NOT NULL,
  "factor" INTEGER NOT NULL,
  "time" INTEGER NOT NULL,
  "type" INTEGER NOT NULL
);

CREATE TABLE "deck_config" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL COLLATE NOCASE,
  "mtime_secs" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "config" BLOB NOT NULL
);

CREATE TABLE "config" (
  "KEY" TEXT PRIMARY KEY NOT NULL,
  "usn" INTEGER NOT NULL,
  "mtime_secs" INTEGER NOT NULL,
  "val" BLOB NOT NULL
) WITHOUT ROWID;

CREATE TABLE "fields" (
  "ntid" INTEGER NOT NULL,
  "ord" INTEGER NOT NULL,
  "name" TEXT NOT NULL COLLATE NOCASE,
  "config" BLOB NOT NULL,
  PRIMARY KEY ("ntid", "ord")
) WITHOUT ROWID;

CREATE TABLE "notetypes" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL COLLATE NOCASE,
  "mtime_secs" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "config" BLOB NOT NULL
);

CREATE TABLE "decks" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL COLLATE NOCASE,
  "mtime_secs" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  "common" BLOB NOT NULL,
  "kind" BLOB NOT NULL
);

CREATE TABLE "tags" (
  "tag" TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
  "usn" INTEGER NOT NULL,
  "collapsed" BOOLEAN NOT NULL,
  "config" BLOB
) WITHOUT ROWID;

CREATE TABLE "graves" (
  "oid" INTEGER NOT NULL,
  "type" INTEGER NOT NULL,
  "usn" INTEGER NOT NULL,
  PRIMARY KEY ("oid", "type")
) WITHOUT ROWID;

CREATE INDEX "ix_notes_csum" ON "notes" ("csum");

CREATE INDEX "ix_notes_usn" ON "notes" ("usn");

CREATE INDEX "idx_cards_odid" ON "cards" ("odid") WHERE odid != 0;

CREATE INDEX "ix_cards_nid" ON "cards" ("nid");

CREATE INDEX "ix_cards_sched" ON "cards" ("did", "queue", "due");

CREATE INDEX "ix_cards_usn" ON "cards" ("usn");

CREATE INDEX "ix_revlog_cid" ON "revlog" ("cid");

CREATE INDEX "ix_revlog_usn" ON "revlog" ("usn");

CREATE UNIQUE INDEX "idx_fields_name_ntid" ON "fields" ("name", "ntid");

CREATE UNIQUE INDEX "idx_notetype_name" ON "notetypes" ("name");

CREATE INDEX "idx_notetype_usn" ON "notetypes" ("usn");

CREATE UNIQUE INDEX "idx_decks_name" ON "decks" ("name");

CREATE INDEX "idx_graves_pending" ON "graves" ("usn");
